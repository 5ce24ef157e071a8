package io.listwatch.client.cli;

import io.listwatch.api.FieldSelector;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.StatusException;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.ReflectorListener;
import io.listwatch.client.cache.ResourceEventHandler;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.cache.SharedInformerFactory;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./listwatch informer}: runs a {@link SharedIndexInformer} of {@link DynamicObject}s
 * against a server and prints one line per handler notification, a line when synced and a
 * line for every list and watch the reflector starts, with its reason. Runs until Ctrl-C or
 * SIGTERM. A debugging tool for users, and an end-to-end check of the library against any
 * server.
 *
 * <p>Lines (fields separated by single spaces, so they can be grepped and cut):
 * <pre>
 * ADD default/web-1 rv=12 initial
 * UPDATE default/web-1 rv=13
 * DELETE default/web-1 rv=13
 * DELETE default/web-2 rv=9 DeletedFinalStateUnknown
 * SYNCED rv=12 objects=1
 * LIST rv="0" reason=initial
 * LISTED rv=12 items=1
 * WATCH rv=12 reason=after list
 * ERROR Reflector[pods]: ...
 * </pre>
 */
@Command(name = "informer", mixinStandardHelpOptions = true,
    description = "Runs a SharedIndexInformer against a server and prints every notification "
        + "its handler gets, when it syncs, and every relist and re-watch with its reason.")
public final class InformerCommand implements Callable<Integer> {

  static final class Target {
    @Option(names = "--server", description = "The API server's URL, e.g. http://127.0.0.1:8080.")
    String server;

    @Option(names = "--kubeconfig", description = "A kubeconfig file (its current context, or --context).")
    Path kubeconfig;
  }

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  Target target = new Target();

  @Option(names = "--context", description = "The kubeconfig context to use.")
  String context;

  @Option(names = "--resource", required = true,
      description = "What to watch: pods, deployments.apps, ... (see --api-version for others).")
  String resource;

  @Option(names = "--api-version", description = "For resources not built in: group/version.")
  String apiVersion;

  @Option(names = "--kind", description = "For resources not built in: the kind.")
  String kind;

  @Option(names = "--cluster-scoped", description = "For resources not built in: not namespaced.")
  boolean clusterScoped;

  @Option(names = {"-n", "--namespace"}, description = "Only this namespace (default: all).")
  String namespace;

  @Option(names = {"-l", "--selector"}, description = "A label selector, e.g. app=web,tier!=db.")
  String selector;

  @Option(names = "--field-selector", description = "A field selector, e.g. spec.nodeName=node-1.")
  String fieldSelector;

  @Option(names = "--watch-list", description = "Sync with a watch-list (sendInitialEvents) instead of a list.")
  boolean watchList;

  @Option(names = "--resync", description = "The handler's resync period in seconds (default: 0, none).")
  long resyncSeconds;

  @Spec
  CommandSpec spec;

  private final PrintStream out;
  private final CountDownLatch stop;

  public InformerCommand() {
    this(System.out, new CountDownLatch(1));
  }

  /** For tests: prints to {@code out} and runs until {@code stop} is counted down. */
  InformerCommand(PrintStream out, CountDownLatch stop) {
    this.out = out;
    this.stop = stop;
  }

  @Override
  public Integer call() throws Exception {
    ResourceType type;
    LabelSelector labels;
    FieldSelector fields;
    Config config;
    try {
      type = ResourceArgument.parse(resource, apiVersion, kind, clusterScoped);
      labels = LabelSelector.parse(selector);
      fields = FieldSelector.parse(fieldSelector);
      config = target.server != null ? Config.forUrl(target.server)
          : target.kubeconfig != null ? Config.fromKubeconfig(target.kubeconfig, context)
          : Config.load();
    } catch (IllegalArgumentException | StatusException e) {
      spec.commandLine().getErr().println("listwatch informer: " + e.getMessage());
      return 2;
    }

    try (KubeClient client = KubeClient.create(config)) {
      SharedInformerFactory.Builder builder = SharedInformerFactory.builder(client)
          .useWatchList(watchList)
          .tweakListOptions(o -> o.toBuilder().labelSelector(labels).fieldSelector(fields).build());
      if (namespace != null && !namespace.isEmpty()) {
        builder.namespace(namespace);
      }
      try (SharedInformerFactory factory = builder.build()) {
        SharedIndexInformer<DynamicObject> informer = factory.informerFor(type, DynamicObject.CODEC);
        informer.setWatchErrorHandler((name, error) -> print("ERROR " + name + ": " + error));
        informer.setReflectorListener(new Printer());
        informer.addEventHandler(new Printer(), Duration.ofSeconds(resyncSeconds));
        Thread hook = Thread.ofPlatform().name("informer-shutdown").unstarted(stop::countDown);
        Runtime.getRuntime().addShutdownHook(hook);
        factory.start();
        Thread.ofVirtual().name("informer-synced").start(() -> {
          try {
            if (factory.waitForCacheSync(Duration.ofDays(365))) { // false once the factory closes
              print("SYNCED rv=" + informer.lastSyncResourceVersion()
                  + " objects=" + informer.getStore().listKeys().size());
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
        stop.await();
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // the hook is what stopped us
        }
      }
    }
    return 0;
  }

  private void print(String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }

  private static String ref(DynamicObject o) {
    return (o.namespace().isEmpty() ? "" : o.namespace() + "/") + o.name()
        + " rv=" + o.resourceVersion();
  }

  /** Prints handler notifications and reflector activity. */
  private final class Printer implements ResourceEventHandler<DynamicObject>, ReflectorListener {
    @Override
    public void onAdd(DynamicObject object, boolean isInInitialList) {
      print("ADD " + ref(object) + (isInInitialList ? " initial" : ""));
    }

    @Override
    public void onUpdate(DynamicObject oldObject, DynamicObject newObject) {
      print("UPDATE " + ref(newObject));
    }

    @Override
    public void onDelete(DynamicObject object, boolean deletedFinalStateUnknown) {
      print("DELETE " + ref(object) + (deletedFinalStateUnknown ? " DeletedFinalStateUnknown" : ""));
    }

    @Override
    public void onList(String resourceVersion, String reason) {
      print("LIST rv=\"" + resourceVersion + "\" reason=" + reason);
    }

    @Override
    public void onListed(String resourceVersion, int items) {
      print("LISTED rv=" + resourceVersion + " items=" + items);
    }

    @Override
    public void onWatch(String resourceVersion, String reason) {
      print("WATCH rv=" + resourceVersion + " reason=" + reason);
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new InformerCommand()).execute(args));
  }
}
