package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.request.ApiResponse;

/** {@link StrategyCases#body} for tests of other packages. Stateless. */
public final class StrategyCasesAccess {

  private StrategyCasesAccess() {
  }

  /** A response's JSON body as an object. */
  public static ObjectNode body(ApiResponse response) {
    return StrategyCases.body(response);
  }
}
