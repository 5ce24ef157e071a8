package io.listwatch.server.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.leaderelection.LeaderElectionRecord;
import io.listwatch.api.leaderelection.LeaseSpec;
import io.listwatch.api.leaderelection.AbstractLeaseLock;
import io.listwatch.apiserver.rest.ResourceStore;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link io.listwatch.api.leaderelection.ResourceLock} over a Lease the server reads and writes through its own
 * {@link ResourceStore}, straight from storage (on etcd, a linearizable read), as the client's
 * {@code LeaseLock} does through the API. An update is refused with 409 Conflict when the Lease
 * changed since this lock last read or wrote it.
 *
 * <p>Confined to its elector's thread. Calls wait at most {@code timeout}; an interrupt (the
 * elector's renew deadline) ends the wait.
 */
final class StoreLeaseLock extends AbstractLeaseLock {

  private final ResourceStore leases;
  private final long timeoutMillis;
  /** The resourceVersion last read or written; null before the first. */
  private String resourceVersion;

  StoreLeaseLock(ResourceStore leases, String namespace, String name, String identity, java.time.Duration timeout) {
    super(namespace, name, identity);
    this.leases = leases;
    this.timeoutMillis = timeout.toMillis();
  }

  @Override
  public Optional<LeaderElectionRecord> get() {
    Optional<ObjectNode> lease = await(leases.getInternal(namespace, name));
    resourceVersion = lease.map(StoreLeaseLock::resourceVersion).orElse(null);
    return lease.map(l -> LeaseSpec.read(l.path("spec")));
  }

  @Override
  public void create(LeaderElectionRecord record) {
    resourceVersion = resourceVersion(await(leases.createInternal(namespace, newLease(record))));
  }

  @Override
  public void update(LeaderElectionRecord record) {
    String expected = resourceVersion;
    if (expected == null) {
      throw new IllegalStateException("update before get or create of " + describe());
    }
    ObjectNode written = await(leases.updateInternal(namespace, name, current -> {
      if (!expected.equals(resourceVersion(current))) {
        throw StatusException.conflictModified("coordination.k8s.io", "leases", name);
      }
      LeaseSpec.write(current.putObject("spec"), record);
      return current;
    }));
    resourceVersion = resourceVersion(written);
  }

  private static String resourceVersion(ObjectNode lease) {
    return lease.path("metadata").path("resourceVersion").asText();
  }

  private <T> T await(CompletableFuture<T> call) {
    try {
      return call.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      while (c instanceof java.util.concurrent.CompletionException && c.getCause() != null) {
        c = c.getCause();
      }
      throw c instanceof RuntimeException r ? r : new IllegalStateException(c);
    } catch (TimeoutException e) {
      throw new IllegalStateException(describe() + ": no answer from storage within " + timeoutMillis + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(describe() + ": interrupted", e);
    }
  }
}
