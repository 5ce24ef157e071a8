package io.listwatch.bench.chaos;

import io.listwatch.testsupport.EndToEnd;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short chaos run on two servers on a three-member etcd (Debian's etcd-server): 35 s of
 * SIGKILLs and SIGSTOPs of members and servers, partitions of members (network namespaces: run as
 * root) and delays on the servers' links to them, and every check of the history passes.
 */
@EndToEnd
class ChaosRunEtcdTest {

  @Test
  void twoServersOnEtcd_underKillsAndPauses_keepEveryGuarantee(@TempDir Path dir) throws Exception {
    ChaosRunTest.assertPasses(Topology.Kind.ETCD, dir);
  }
}
