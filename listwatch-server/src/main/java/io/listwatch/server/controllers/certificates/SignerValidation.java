package io.listwatch.server.controllers.certificates;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What kube's signer checks of a request before it signs it for one of kube's built-in signers
 * ({@code pkg/controller/certificates/signer} and {@code pkg/apis/certificates}' helpers), with
 * kube's messages; a request that fails is marked Failed ({@code SignerValidationFailure}) with
 * the message.
 *
 * <ul>
 *   <li>{@value #KUBE_APISERVER_CLIENT}: usages {@code client auth}, and optionally
 *       {@code digital signature} and {@code key encipherment}; any subject.</li>
 *   <li>{@value #KUBELET_CLIENT}: subject organization exactly {@code system:nodes}, no subject
 *       alternative names, common name {@code system:node:...}, usages {@code client auth} and
 *       {@code digital signature} (and {@code key encipherment}).</li>
 *   <li>{@value #KUBELET_SERVING}: subject organization exactly {@code system:nodes}, DNS or IP
 *       subject alternative names (no e-mail, no URI), usages {@code server auth} and
 *       {@code digital signature} (and {@code key encipherment}), common name
 *       {@code system:node:...}.</li>
 * </ul>
 *
 * <p>Stateless.
 */
final class SignerValidation {

  static final String KUBE_APISERVER_CLIENT = "kubernetes.io/kube-apiserver-client";
  static final String KUBELET_CLIENT = "kubernetes.io/kube-apiserver-client-kubelet";
  static final String KUBELET_SERVING = "kubernetes.io/kubelet-serving";
  /** The signers this server signs for (kube's {@code legacy-unknown} cannot be asked for in v1). */
  static final Set<String> SIGNERS = Set.of(KUBE_APISERVER_CLIENT, KUBELET_CLIENT, KUBELET_SERVING);

  private static final String DIGITAL_SIGNATURE = "digital signature";
  private static final String KEY_ENCIPHERMENT = "key encipherment";
  private static final String CLIENT_AUTH = "client auth";
  private static final String SERVER_AUTH = "server auth";
  private static final String NODES = "system:nodes";
  private static final String NODE_PREFIX = "system:node:";

  private SignerValidation() {
  }

  /** Why {@code signerName} refuses to sign {@code request} for {@code usages}; empty when it signs. */
  static Optional<String> validate(String signerName, CertificateRequest request, List<String> usages) {
    return Optional.ofNullable(switch (signerName) {
      case KUBE_APISERVER_CLIENT -> apiServerClient(usages);
      case KUBELET_CLIENT -> kubeletClient(request, new TreeSet<>(usages));
      case KUBELET_SERVING -> kubeletServing(request, new TreeSet<>(usages));
      default -> throw new IllegalArgumentException("unrecognized signerName: \"" + signerName + "\"");
    });
  }

  private static String apiServerClient(List<String> usages) {
    boolean clientAuth = false;
    for (String u : usages) {
      switch (u) {
        case DIGITAL_SIGNATURE, KEY_ENCIPHERMENT -> { }
        case CLIENT_AUTH -> clientAuth = true;
        default -> {
          return "invalid usage for client certificate: " + u;
        }
      }
    }
    return clientAuth ? null : "missing required usage for client certificate: " + CLIENT_AUTH;
  }

  /** kube's {@code ValidateKubeletClientCSR}. */
  private static String kubeletClient(CertificateRequest r, Set<String> usages) {
    if (!r.organizations().equals(List.of(NODES))) {
      return "subject organization is not system:nodes";
    }
    if (!r.dnsNames().isEmpty()) {
      return "DNS subjectAltNames are not allowed";
    }
    if (!r.emailAddresses().isEmpty()) {
      return "Email subjectAltNames are not allowed";
    }
    if (!r.ipAddresses().isEmpty()) {
      return "IP subjectAltNames are not allowed";
    }
    if (!r.uris().isEmpty()) {
      return "URI subjectAltNames are not allowed";
    }
    if (!r.commonName().startsWith(NODE_PREFIX)) {
      return "subject common name does not begin with system:node:";
    }
    return usagesMatch(usages, CLIENT_AUTH);
  }

  /** kube's {@code ValidateKubeletServingCSR}. */
  private static String kubeletServing(CertificateRequest r, Set<String> usages) {
    if (!r.organizations().equals(List.of(NODES))) {
      return "subject organization is not system:nodes";
    }
    if (r.dnsNames().isEmpty() && r.ipAddresses().isEmpty()) {
      return "DNS or IP subjectAltName is required";
    }
    if (!r.emailAddresses().isEmpty()) {
      return "Email subjectAltNames are not allowed";
    }
    if (!r.uris().isEmpty()) {
      return "URI subjectAltNames are not allowed";
    }
    String usagesError = usagesMatch(usages, SERVER_AUTH);
    if (usagesError != null) {
      return usagesError;
    }
    return r.commonName().startsWith(NODE_PREFIX) ? null : "subject common name does not begin with system:node:";
  }

  /**
   * Whether {@code usages} are exactly {@code digital signature}, {@code key encipherment} and
   * {@code purpose}, or the same without {@code key encipherment} (keys other than RSA).
   */
  private static String usagesMatch(Set<String> usages, String purpose) {
    Set<String> rsa = new TreeSet<>(List.of(DIGITAL_SIGNATURE, KEY_ENCIPHERMENT, purpose));
    if (usages.equals(rsa) || usages.equals(Set.of(DIGITAL_SIGNATURE, purpose))) {
      return null;
    }
    return "usages did not match [" + String.join(" ", rsa) + "]";
  }
}
