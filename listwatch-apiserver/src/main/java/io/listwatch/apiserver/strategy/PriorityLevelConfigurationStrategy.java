package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * PriorityLevelConfigurations (flowcontrol.apiserver.k8s.io/v1), kube 1.32's strategy, defaults
 * and validation. Defaults (flowcontrol/v1 {@code SetDefaults_*}): a given {@code spec.limited}
 * gets {@code nominalConcurrencyShares: 30} and {@code lendablePercent: 0}, its
 * {@code limitResponse.queuing} {@code queues: 64}, {@code handSize: 8},
 * {@code queueLengthLimit: 50} (each when 0 or unset); a given {@code spec.exempt} gets
 * {@code nominalConcurrencyShares: 0} and {@code lendablePercent: 0}.
 *
 * <p>Validation ({@code ValidatePriorityLevelConfiguration}, the same on create and update, and
 * as kube 1.32 with zero shares allowed): v1beta3's round-trip annotation
 * ({@code flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares}) forbidden; {@code type} is Exempt exactly when the name is
 * {@code exempt}; Exempt forbids {@code limited}, Limited forbids {@code exempt} and requires
 * {@code limited}; nominal shares not negative, {@code lendablePercent} 0 to 100,
 * {@code borrowingLimitPercent} not negative; {@code limitResponse} Queue (with {@code queuing}:
 * positive {@code queueLengthLimit}, {@code queues} 1 to 10^7, {@code handSize} positive, at most
 * {@code queues} and within shuffle sharding's 60 hash bits) or Reject (without {@code queuing});
 * the mandatory {@code exempt} and {@code catch-all} levels keep their fixed spec
 * ({@link MandatoryFlowcontrolConfiguration}; {@code exempt}'s {@code spec.exempt} may change);
 * the status conditions ({@link FlowcontrolStatusValidation}), also on {@code /status}. The server
 * clears the status on create, keeps it on update and bumps the generation on a spec change
 * (the definition's flags). Stateless.
 */
final class PriorityLevelConfigurationStrategy implements RestStrategy {

  /** kube's {@code priorityLevelConfigurationQueuingMaxQueues}. */
  private static final long MAX_QUEUES = 10_000_000L;
  /** v1beta3's round-trip annotation, which no stored object may carry. */
  private static final String PRESERVE_ZERO_SHARES = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares";
  /** Shuffle sharding's {@code MaxHashBits}. */
  private static final int MAX_HASH_BITS = 60;

  @Override
  public void defaults(ObjectNode obj) {
    JsonNode spec = obj.path("spec");
    if (spec.path("limited") instanceof ObjectNode limited) {
      Fields.defaultIfAbsent(limited, "nominalConcurrencyShares", 30);
      Fields.defaultIfAbsent(limited, "lendablePercent", 0);
      if (limited.path("limitResponse").path("queuing") instanceof ObjectNode queuing) {
        defaultIfZero(queuing, "handSize", 8);
        defaultIfZero(queuing, "queues", 64);
        defaultIfZero(queuing, "queueLengthLimit", 50);
      }
    }
    if (spec.path("exempt") instanceof ObjectNode exempt) {
      Fields.defaultIfAbsent(exempt, "nominalConcurrencyShares", 0);
      Fields.defaultIfAbsent(exempt, "lendablePercent", 0);
    }
  }

  /** A non-pointer int32 kube defaults when it is its zero value. */
  private static void defaultIfZero(ObjectNode obj, String field, int value) {
    JsonNode v = obj.path(field);
    if (!NumericFields.given(v) || (v.isIntegralNumber() && v.longValue() == 0)) {
      obj.put(field, value);
    }
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    String name = obj.path("metadata").path("name").asText("");
    if (obj.path("metadata").path("annotations").has(PRESERVE_ZERO_SHARES)) {
      errors.add(FieldErrors.forbidden("metadata.annotations", "annotation '" + PRESERVE_ZERO_SHARES + "' is forbidden"));
    }
    JsonNode spec = obj.path("spec");
    validateSpec(spec, name, errors);
    ObjectNode mandatory = MandatoryFlowcontrolConfiguration.priorityLevelSpec(name);
    if (mandatory != null) {
      JsonNode have = spec;
      String detail = "spec of '" + name + "' must equal the fixed value";
      if (name.equals("exempt")) {
        // the administrator may change spec.exempt of the mandatory exempt level, nothing else
        ObjectNode copy = spec.isObject() ? ((ObjectNode) spec).deepCopy() : mandatory.objectNode();
        copy.set("exempt", mandatory.get("exempt"));
        have = copy;
        detail = "spec of '" + name + "' except the 'spec.exempt' field must equal the fixed value";
      }
      if (!MandatoryFlowcontrolConfiguration.semanticallyEqual(have, mandatory)) {
        errors.add(FieldErrors.invalid("spec", specLiteral(spec), detail));
      }
    }
    FlowcontrolStatusValidation.validate(obj, errors);
  }

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    FlowcontrolStatusValidation.refuse("PriorityLevelConfiguration", obj);
  }

  /** kube's {@code ValidatePriorityLevelConfigurationSpec}. */
  private static void validateSpec(JsonNode spec, String name, List<Status.Cause> errors) {
    String type = spec.path("type").asText("");
    if (name.equals("exempt") != type.equals("Exempt")) {
      errors.add(FieldErrors.invalid("spec.type", type, "type must be 'Exempt' if and only if name is 'exempt'"));
    }
    JsonNode limited = spec.path("limited");
    JsonNode exempt = spec.path("exempt");
    switch (type) {
      case "Exempt" -> {
        if (NumericFields.given(limited)) {
          errors.add(FieldErrors.forbidden("spec.limited", "must be nil if the type is not Limited"));
        }
        if (exempt.isObject()) {
          shares(exempt.path("nominalConcurrencyShares"), "spec.exempt", errors);
          lendable(exempt.path("lendablePercent"), "spec.exempt", errors);
        }
      }
      case "Limited" -> {
        if (NumericFields.given(exempt)) {
          errors.add(FieldErrors.forbidden("spec.exempt", "must be nil if the type is Limited"));
        }
        if (!NumericFields.given(limited)) {
          errors.add(FieldErrors.required("spec.limited", "must not be empty when type is Limited"));
        } else {
          validateLimited(limited, errors);
        }
      }
      default -> errors.add(FieldErrors.notSupported("spec.type", type, List.of("Exempt", "Limited")));
    }
  }

  /** kube's {@code ValidateLimitedPriorityLevelConfiguration} (zero shares allowed, as in 1.30+). */
  private static void validateLimited(JsonNode limited, List<Status.Cause> errors) {
    String path = "spec.limited";
    shares(limited.path("nominalConcurrencyShares"), path, errors);
    validateLimitResponse(limited.path("limitResponse"), path + ".limitResponse", errors);
    lendable(limited.path("lendablePercent"), path, errors);
    JsonNode borrowing = limited.path("borrowingLimitPercent");
    if (borrowing.isIntegralNumber() && borrowing.longValue() < 0) {
      errors.add(FieldErrors.invalid(path + ".borrowingLimitPercent", borrowing.longValue(),
          "if specified, must be a non-negative integer"));
    }
  }

  private static void shares(JsonNode shares, String path, List<Status.Cause> errors) {
    if (shares.isIntegralNumber() && shares.longValue() < 0) {
      errors.add(FieldErrors.invalid(path + ".nominalConcurrencyShares", shares.longValue(), "must be a non-negative integer"));
    }
  }

  private static void lendable(JsonNode percent, String path, List<Status.Cause> errors) {
    if (percent.isIntegralNumber() && (percent.longValue() < 0 || percent.longValue() > 100)) {
      errors.add(FieldErrors.invalid(path + ".lendablePercent", percent.longValue(), "must be between 0 and 100, inclusive"));
    }
  }

  /** kube's {@code ValidateLimitResponse}. */
  private static void validateLimitResponse(JsonNode response, String path, List<Status.Cause> errors) {
    String type = response.path("type").asText("");
    JsonNode queuing = response.path("queuing");
    switch (type) {
      case "Reject" -> {
        if (NumericFields.given(queuing)) {
          errors.add(FieldErrors.forbidden(path + ".queuing", "must be nil if limited.limitResponse.type is not Limited"));
        }
      }
      case "Queue" -> {
        if (!NumericFields.given(queuing)) {
          errors.add(FieldErrors.required(path + ".queuing", "must not be empty if limited.limitResponse.type is Limited"));
        } else {
          validateQueuing(queuing, path + ".queuing", errors);
        }
      }
      default -> errors.add(FieldErrors.notSupported(path + ".type", type, List.of("Queue", "Reject")));
    }
  }

  /** kube's {@code ValidatePriorityLevelQueuingConfiguration}. */
  private static void validateQueuing(JsonNode queuing, String path, List<Status.Cause> errors) {
    long queueLengthLimit = queuing.path("queueLengthLimit").asLong(0);
    long queues = queuing.path("queues").asLong(0);
    long handSize = queuing.path("handSize").asLong(0);
    if (queueLengthLimit <= 0) {
      errors.add(FieldErrors.invalid(path + ".queueLengthLimit", queueLengthLimit, "must be positive"));
    }
    if (queues <= 0) {
      errors.add(FieldErrors.invalid(path + ".queues", queues, "must be positive"));
    } else if (queues > MAX_QUEUES) {
      errors.add(FieldErrors.invalid(path + ".queues", queues, "must not be greater than " + MAX_QUEUES));
    }
    if (handSize <= 0) {
      errors.add(FieldErrors.invalid(path + ".handSize", handSize, "must be positive"));
    } else if (handSize > queues) {
      errors.add(FieldErrors.invalid(path + ".handSize", handSize, "should not be greater than queues (" + queues + ")"));
    } else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) {
      errors.add(FieldErrors.invalid(path + ".handSize", handSize, "required entropy bits of deckSize " + queues
          + " and handSize " + handSize + " should not be greater than " + MAX_HASH_BITS));
    }
  }

  /** Shuffle sharding's {@code RequiredEntropyBits}: ceil(log2(deckSize) * handSize). */
  static int requiredEntropyBits(long deckSize, long handSize) {
    return (int) Math.ceil(log2(deckSize) * handSize);
  }

  /** Go's {@code math.Log2}: exact for powers of two, else from the binary fraction and exponent. */
  private static double log2(double x) {
    int exp = Math.getExponent(x) + 1;
    double frac = x / Math.scalb(1.0, exp);
    if (frac == 0.5) {
      return exp - 1;
    }
    return Math.log(frac) * (1 / Math.log(2)) + exp;
  }

  /**
   * The spec as kube prints it in its error ({@code %#v} of the internal struct); the addresses
   * Go prints for set pointers are not reproduced.
   */
  private static GoLiteral specLiteral(JsonNode spec) {
    return GoLiteral.struct("flowcontrol.PriorityLevelConfigurationSpec",
        "Type", FieldErrors.goValue(spec.path("type").asText("")),
        "Limited", pointer("flowcontrol.LimitedPriorityLevelConfiguration", spec.path("limited")),
        "Exempt", pointer("flowcontrol.ExemptPriorityLevelConfiguration", spec.path("exempt")));
  }

  static String pointer(String type, JsonNode value) {
    return "(*" + type + ")(" + (NumericFields.given(value) ? "0xc000000000" : "nil") + ")";
  }
}
