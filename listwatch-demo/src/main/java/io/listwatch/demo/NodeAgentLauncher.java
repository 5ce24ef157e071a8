package io.listwatch.demo;

import io.listwatch.client.KubeClient;

/**
 * Starts one simulated node of the demo: a node agent registering Node {@code nodeName} and
 * running the pods bound to it, until closed.
 */
@FunctionalInterface
public interface NodeAgentLauncher {

  /**
   * Starts the agent of {@code nodeName}, with pod IPs from {@code podCidr}; returns what stops
   * it.
   */
  AutoCloseable start(KubeClient client, String nodeName, String podCidr);
}
