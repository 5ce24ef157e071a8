package io.listwatch.apiserver.registry;

/**
 * Which syntax rule a resource's {@code metadata.name} must follow: kube's per-type
 * {@code ValidateNameFunc}. {@code io.listwatch.apiserver.validation.NameRules} applies it, with
 * the syntax rules of {@code io.listwatch.api.validation.NameSyntax}.
 *
 * <p>Every rule is followed by kube's path-segment rule (the name may not be {@code "."} or
 * {@code ".."} and may not contain {@code "/"} or {@code "%"}), which kube's generic registry
 * applies to every resource; the DNS rules already imply it.
 */
public enum NameValidation {

  /**
   * DNS-1123 subdomain: at most 253 characters of lowercase alphanumerics, {@code '-'} and
   * {@code '.'}, starting and ending with an alphanumeric. Most resources (pods, configmaps,
   * secrets, nodes, deployments, ...).
   */
  DNS1123_SUBDOMAIN,

  /**
   * DNS-1123 label: at most 63 lowercase alphanumerics or {@code '-'}, starting and ending with
   * an alphanumeric. Namespaces.
   */
  DNS1123_LABEL,

  /**
   * DNS-1035 label: like a DNS-1123 label, but must start with a letter. Services.
   */
  DNS1035_LABEL,

  /**
   * Only the path-segment rule. core/v1 Events, whose strategy does not validate names
   * beyond what the generic registry checks.
   */
  PATH_SEGMENT
}
