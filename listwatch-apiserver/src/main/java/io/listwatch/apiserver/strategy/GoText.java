package io.listwatch.apiserver.strategy;

/**
 * A bad value that kube prints with its own {@code String()} method (a label selector, an
 * int-or-string, a Go struct), given to {@link io.listwatch.apiserver.validation.FieldErrors}
 * so that it is printed as it is, without the quotes of a string. Immutable.
 */
record GoText(String text) {

  @Override
  public String toString() {
    return text;
  }
}
