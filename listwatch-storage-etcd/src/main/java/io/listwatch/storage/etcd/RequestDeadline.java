package io.listwatch.storage.etcd;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Gives every unary etcd request (range, txn, compact, status) a gRPC deadline, as
 * kube-apiserver's etcd client does with its request contexts. A request that waits for a
 * member to come back fails at the deadline and is never sent after it. Watches, which are
 * streams that live as long as they are wanted, get none. Stateless; thread-safe.
 */
final class RequestDeadline implements ClientInterceptor {

  private final long nanos;

  RequestDeadline(Duration deadline) {
    this.nanos = deadline.toNanos();
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    if (method.getType() == MethodDescriptor.MethodType.UNARY && options.getDeadline() == null) {
      return next.newCall(method, options.withDeadlineAfter(nanos, TimeUnit.NANOSECONDS));
    }
    return next.newCall(method, options);
  }
}
