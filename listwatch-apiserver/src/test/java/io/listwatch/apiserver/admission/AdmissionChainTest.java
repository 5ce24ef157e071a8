package io.listwatch.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class AdmissionChainTest {

  private static final ResourceDefinition PODS = ResourceRegistry.builtins().find("", "v1", "pods").orElseThrow();

  private final List<String> calls = new ArrayList<>();

  /** A plug-in of {@code name} that notes its phases and may refuse in the validating one. */
  private AdmissionPlugin plugin(String name, boolean refuses) {
    return new AdmissionPlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public void admit(AdmissionAttributes a) {
        calls.add("admit " + name);
      }

      @Override
      public CompletableFuture<Void> validate(AdmissionAttributes a) {
        calls.add("validate " + name);
        return refuses ? CompletableFuture.failedFuture(StatusException.forbidden("", "pods", "p", name + " says no"))
            : CompletableFuture.completedFuture(null);
      }
    };
  }

  private static AdmissionAttributes createPod(ObjectNode pod) {
    return new AdmissionAttributes(AdmissionAttributes.Operation.CREATE, PODS, "", "default", "p", pod, null,
        AdmissionAttributes.SERVER, false);
  }

  @Test
  void plugins_runInKubesOrder_whateverOrderTheyAreGivenIn() {
    AdmissionChain chain = AdmissionChain.of(List.of(plugin("ServiceAccount", false), plugin("NamespaceLifecycle", false)));
    assertThat(chain.names()).containsExactly("NamespaceLifecycle", "ServiceAccount");

    AdmissionAttributes a = createPod(JsonNodeFactory.instance.objectNode());
    chain.admit(a);
    chain.validate(a).join();
    assertThat(calls).containsExactly("admit NamespaceLifecycle", "admit ServiceAccount",
        "validate NamespaceLifecycle", "validate ServiceAccount");
  }

  @Test
  void theFirstRefusal_endsTheValidatingPhase() {
    AdmissionChain chain = AdmissionChain.of(List.of(plugin("NamespaceLifecycle", true), plugin("ServiceAccount", false)));
    assertThatThrownBy(() -> chain.validate(createPod(JsonNodeFactory.instance.objectNode())).join())
        .isInstanceOf(CompletionException.class).hasCauseInstanceOf(StatusException.class)
        .hasMessageContaining("NamespaceLifecycle says no");
    assertThat(calls).containsExactly("validate NamespaceLifecycle");
  }

  @Test
  void unknownOrRepeatedPlugins_areRefused() {
    assertThatThrownBy(() -> AdmissionChain.of(List.of(plugin("AlwaysPullImages", false))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown admission plug-in AlwaysPullImages");
    assertThatThrownBy(() -> AdmissionChain.of(List.of(plugin("ServiceAccount", false), plugin("ServiceAccount", false))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("given twice");
  }

  @Test
  void aWaitingMutatingPlugin_holdsBackTheRest_untilItCompletes() {
    CompletableFuture<Void> answer = new CompletableFuture<>();
    AdmissionPlugin waiting = new AdmissionPlugin() {
      @Override
      public String name() {
        return "NamespaceLifecycle";
      }

      @Override
      public CompletableFuture<Void> admitAsync(AdmissionAttributes a) {
        calls.add("admit NamespaceLifecycle");
        return answer;
      }
    };
    AdmissionChain chain = AdmissionChain.of(List.of(waiting, plugin("ServiceAccount", false)));

    CompletableFuture<Void> admitted = chain.admit(createPod(JsonNodeFactory.instance.objectNode()));
    assertThat(admitted).isNotDone();
    assertThat(calls).containsExactly("admit NamespaceLifecycle");

    answer.complete(null);
    assertThat(admitted).isCompleted();
    assertThat(calls).containsExactly("admit NamespaceLifecycle", "admit ServiceAccount");
  }

  @Test
  void deletes_reachOnlyThePluginsThatHandleThem() {
    AdmissionPlugin deletes = new AdmissionPlugin() {
      @Override
      public String name() {
        return "ValidatingAdmissionWebhook";
      }

      @Override
      public boolean handles(AdmissionAttributes.Operation operation) {
        return true;
      }

      @Override
      public CompletableFuture<Void> validate(AdmissionAttributes a) {
        calls.add("validate " + a.operation() + " of " + a.oldObject().path("metadata").path("name").asText());
        return CompletableFuture.completedFuture(null);
      }
    };
    AdmissionChain chain = AdmissionChain.of(List.of(plugin("ServiceAccount", false), deletes));
    ObjectNode stored = JsonNodeFactory.instance.objectNode();
    stored.putObject("metadata").put("name", "p");
    AdmissionAttributes delete = new AdmissionAttributes(AdmissionAttributes.Operation.DELETE, PODS, "", "default",
        "p", null, stored, AdmissionAttributes.SERVER, false);

    chain.admit(delete).join();
    chain.validate(delete).join();

    assertThat(calls).containsExactly("validate DELETE of p");
  }
}
