/**
 * The {@link io.listwatch.storage.Storage} contract over an etcd v3 cluster ({@link
 * io.listwatch.storage.etcd.EtcdStorage}), for running several API server replicas on one
 * store. Built on jetcd; the same contract suite as the embedded store runs against a real
 * etcd in this module's tests.
 */
package io.listwatch.storage.etcd;
