package io.listwatch.bench.chaos;

import io.listwatch.testsupport.EndToEnd;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short chaos run on two servers on a three-member etcd (Debian's etcd-server): 35 s of
 * SIGKILLs and SIGSTOPs of members and servers, network faults of members (partitions, splits
 * from their peers, lossy links: network namespaces, run as root), delays and drops on the
 * servers' links to them and servers cut off from etcd, and every check of the history passes.
 */
@EndToEnd
class ChaosRunEtcdTest {

  @Test
  void twoServersOnEtcd_underKillsAndPauses_keepEveryGuarantee(@TempDir Path dir) throws Exception {
    ChaosRunTest.assertPasses(Topology.Kind.ETCD, dir);
  }
}
