package io.listwatch.apiserver.features;

import java.util.List;

/**
 * The kube feature gates this server knows (kube-apiserver's {@code --feature-gates}), each
 * with kube's default. Only gates that change what the server does are here; a gate kube has
 * and listwatch does not is refused by {@link #parse} rather than silently ignored.
 * Immutable.
 *
 * @param allowUnsafeMalformedObjectDeletion {@code AllowUnsafeMalformedObjectDeletion} (alpha
 *     since kube 1.32, off by default): the delete option
 *     {@code ignoreStoreReadErrorWithClusterBreakingPotential} removes an object whose stored
 *     value the server cannot read, for a user also allowed the verb
 *     {@code unsafe-delete-ignore-read-errors}
 * @param apiResponseCompression {@code APIResponseCompression} (beta and on by default since
 *     kube 1.16): an API response larger than 128 KiB is gzip-compressed when the request's
 *     {@code Accept-Encoding} names {@code gzip}
 */
public record FeatureGates(boolean allowUnsafeMalformedObjectDeletion, boolean apiResponseCompression) {

  /** kube's defaults. */
  public static final FeatureGates DEFAULTS = new FeatureGates(false, true);

  /** The gates' names, as {@code --feature-gates} spells them. */
  public static final List<String> KNOWN = List.of("AllowUnsafeMalformedObjectDeletion", "APIResponseCompression");

  /**
   * Reads kube's flag syntax, {@code Name=true,Other=false}, over the defaults; an empty string
   * leaves them. The last word on a gate wins.
   *
   * @throws IllegalArgumentException for a gate this server does not know, a pair without
   *     {@code =}, or a value that is not a Go boolean ({@code true}, {@code false}, {@code 1},
   *     {@code 0}, {@code t}, {@code f}, {@code TRUE}, {@code True} and the like)
   */
  public static FeatureGates parse(String spec) {
    boolean unsafeDelete = DEFAULTS.allowUnsafeMalformedObjectDeletion;
    boolean compression = DEFAULTS.apiResponseCompression;
    for (String pair : spec.split(",", -1)) {
      String p = pair.strip();
      if (p.isEmpty()) {
        continue;
      }
      int eq = p.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("missing bool value for " + p);
      }
      String name = p.substring(0, eq).strip();
      String value = p.substring(eq + 1).strip();
      if (!KNOWN.contains(name)) {
        throw new IllegalArgumentException("unrecognized feature gate: " + name + " (this server knows: "
            + String.join(", ", KNOWN) + ")");
      }
      boolean on;
      try {
        on = io.listwatch.api.Strconv.parseBool(value); // as kube's flag parsing reads it
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("invalid value of " + name + "=" + value + ", err: " + e.getMessage(), e);
      }
      if (name.equals("APIResponseCompression")) {
        compression = on;
      } else {
        unsafeDelete = on;
      }
    }
    return new FeatureGates(unsafeDelete, compression);
  }
}
