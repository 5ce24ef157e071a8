package io.listwatch.demo;

import io.listwatch.client.KubeClient;
import java.nio.file.Path;

/**
 * Starts one simulated node of the demo: a node agent registering Node {@code nodeName} and
 * running the pods bound to it and the static pods of its manifest directory, until closed.
 */
@FunctionalInterface
public interface NodeAgentLauncher {

  /**
   * Starts the agent of {@code nodeName}, with pod IPs from {@code podCidr} and static pods
   * from {@code manifestDir} (which exists); returns what stops it.
   */
  AutoCloseable start(KubeClient client, String nodeName, String podCidr, Path manifestDir);
}
