/**
 * kube's aggregation layer (kube-aggregator): APIServices and what the server does with them.
 * {@link io.listwatch.apiserver.aggregator.APIServiceRegistration} keeps a local APIService for
 * every group-version this server serves (built-ins at start, custom resources as they come
 * and go); {@link io.listwatch.apiserver.aggregator.AvailableConditionController} keeps the
 * Available condition of the others (their Service, its Endpoints, and a discovery GET) and
 * their servers' resource lists; {@link io.listwatch.apiserver.aggregator.APIServiceProxying}
 * says which requests go to which server and what discovery lists of them. The transport does
 * the proxying itself (listwatch-server).
 */
package io.listwatch.apiserver.aggregator;
