/**
 * {@code ./listwatch demo}: {@link io.listwatch.demo.Demo} starts the API server (plain HTTP on
 * the loopback address, with the live page at {@code /ui/}), writes a kubeconfig, and runs the
 * controller set and the simulated nodes in the same process;
 * {@link io.listwatch.demo.DemoCommand} is its command line.
 */
package io.listwatch.demo;
