/**
 * Facts of kube's core/v1 kinds that both the server and the client need: resource
 * quantities and a pod's quality-of-service class.
 */
package io.listwatch.api.core;
