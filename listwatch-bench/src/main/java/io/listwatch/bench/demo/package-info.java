/**
 * {@code bench demo-scale}: the API server, the controllers and a fleet of simulated node
 * agents, each in a JVM of its own, driven by deployments of thousands of pods
 * ({@link io.listwatch.bench.demo.DemoScaleBenchmark}).
 */
package io.listwatch.bench.demo;
