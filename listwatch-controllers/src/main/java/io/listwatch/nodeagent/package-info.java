/**
 * A kubelet-style node agent: the list-watch side of the kubelet, with pods "run" by simulation.
 *
 * <ul>
 *   <li>{@link io.listwatch.nodeagent.PodConfig}: merges the pod sources into one stream of
 *       {@link io.listwatch.nodeagent.PodUpdate}s ({@link io.listwatch.nodeagent.PodOperation}).
 *   <li>Sources: {@link io.listwatch.nodeagent.ApiserverSource} (pods bound to the node, through
 *       an UndeltaStore), {@link io.listwatch.nodeagent.FileSource} (the manifest directory),
 *       {@link io.listwatch.nodeagent.HttpSource} (the manifest URL);
 *       {@link io.listwatch.nodeagent.StaticPods} names and annotates static pods.
 *   <li>{@link io.listwatch.nodeagent.NodeAgent}: registers the Node, renews its Lease, and acts on
 *       the merged updates.
 *   <li>Package-private: {@code PodWorkers} runs the pods by simulation ({@code Simulation}
 *       makes containers exit, {@code Backoff} paces their restarts: CrashLoopBackOff);
 *       {@code PodStatusManager} writes pod statuses and writes them back when someone else
 *       changed them; {@code MirrorPods} keeps the static pods' mirror pods.
 * </ul>
 */
package io.listwatch.nodeagent;
