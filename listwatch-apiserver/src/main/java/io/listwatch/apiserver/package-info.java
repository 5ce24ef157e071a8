/**
 * kube-apiserver's API machinery without sockets. {@link io.listwatch.apiserver.GenericApiServer}
 * assembles it over one {@code Storage}; the packages below hold its parts, bottom up:
 * {@code request} (the values), {@code features} (the feature gates), {@code registry} (what is
 * served), {@code validation},
 * {@code strategy} (what differs per kind), {@code cacher} (the watch cache), {@code rest}
 * (routes, verbs, the registry store), {@code controller} (the server's work queue),
 * {@code openapi}, {@code printers}, {@code protobuf} and {@code apiextensions} (custom
 * resources). The network server ({@code listwatch-server}) wraps it; docs/architecture.md
 * follows a watch and a create through it file by file.
 */
package io.listwatch.apiserver;
