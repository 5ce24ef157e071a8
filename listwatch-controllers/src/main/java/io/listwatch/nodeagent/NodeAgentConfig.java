package io.listwatch.nodeagent;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The settings of a {@link NodeAgent} (built by {@link NodeAgent.Builder}). Immutable.
 *
 * @param nodeName the Node's name
 * @param manifestDir the static pod directory, or null
 * @param manifestUrl the static pod URL, or null
 * @param podCidr the IPv4 range pod IPs come from; also the Node's {@code spec.podCIDR}
 * @param nodeIp the Node's InternalIP, and the pods' {@code hostIP}
 * @param cpu the capacity and allocatable cpu, as a quantity ("4")
 * @param memory the capacity and allocatable memory, as a quantity ("8Gi")
 * @param maxPods the capacity and allocatable pods
 * @param leaseDuration the Lease's {@code leaseDurationSeconds}
 * @param leaseRenewInterval how often the Lease is renewed
 * @param statusUpdatePeriod how often the Node's status (heartbeat times) is written
 * @param fileCheckPeriod how often the manifest directory is re-read at least
 * @param httpCheckPeriod how often the manifest URL is polled
 * @param containerStartDelay how long a new pod's containers take to start
 * @param crashLoopBackOff the first back-off before restarting a container that exited again
 * @param crashLoopBackOffMax the longest back-off (it doubles up to it)
 */
public record NodeAgentConfig(String nodeName, Path manifestDir, URI manifestUrl, String podCidr, String nodeIp,
    String cpu, String memory, int maxPods, Duration leaseDuration, Duration leaseRenewInterval,
    Duration statusUpdatePeriod, Duration fileCheckPeriod, Duration httpCheckPeriod, Duration containerStartDelay,
    Duration crashLoopBackOff, Duration crashLoopBackOffMax) {
}
