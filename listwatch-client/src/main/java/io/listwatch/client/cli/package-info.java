/**
 * {@code ./listwatch informer}: a debugging tool that runs a SharedIndexInformer against any
 * server and prints what its handler sees.
 */
package io.listwatch.client.cli;
