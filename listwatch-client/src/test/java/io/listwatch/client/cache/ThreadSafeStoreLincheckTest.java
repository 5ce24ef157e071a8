package io.listwatch.client.cache;

import static io.listwatch.client.cache.StoreTestObject.BY_APP;
import static io.listwatch.client.cache.StoreTestObject.KEY;
import static io.listwatch.client.cache.StoreTestObject.obj;

import io.listwatch.testsupport.ModelChecks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * Lincheck's model checker on {@link ThreadSafeStore} with two indexes, one single-valued
 * ({@code app}) and one multi-valued ({@code labels}: every label value). Its contract: every
 * write changes the objects and every index at once, and readers never see an index that
 * disagrees with the objects. Checked two ways: every explored interleaving of writers and
 * readers gives results some one-at-a-time order gives (linearizability against the store
 * itself, run sequentially), and after each run every index holds exactly the keys of the
 * objects having each value, no empty bucket left behind.
 */
@Param(name = "name", gen = IntGen.class, conf = "0:1")
@Param(name = "variant", gen = IntGen.class, conf = "0:3")
@Param(name = "value", gen = IntGen.class, conf = "0:1")
@Param(name = "mask", gen = IntGen.class, conf = "0:3")
public class ThreadSafeStoreLincheckTest {

  private static final String[] NAMES = {"a", "b"};
  private static final String[] VALUES = {"x", "y"};
  /** The labels of each variant: none, app=x, app=y, app=x and tier=y. */
  private static final List<Map<String, String>> LABELS = List.of(
      Map.of(), Map.of("app", "x"), Map.of("app", "y"), Map.of("app", "x", "tier", "y"));
  private static final IndexFunc<StoreTestObject> BY_LABEL_VALUES =
      o -> new ArrayList<>(new TreeSet<>(o.labels().values()));

  private final ThreadSafeStore<StoreTestObject> store =
      new ThreadSafeStore<>(KEY, Map.of("app", BY_APP, "labels", BY_LABEL_VALUES));

  private static StoreTestObject object(int name, int variant) {
    return obj("ns", NAMES[name], Integer.toString(variant), LABELS.get(variant));
  }

  /**
   * Objects as "name:variant", sorted: results independent of hash order. (Loops, not streams:
   * the checker follows every call, and a stream makes many.)
   */
  private static List<String> describe(List<StoreTestObject> objects) {
    List<String> out = new ArrayList<>(objects.size());
    for (StoreTestObject o : objects) {
      out.add(o.name() + ":" + o.resourceVersion());
    }
    Collections.sort(out);
    return out;
  }

  @Operation(params = {"name", "variant"})
  public void add(int name, int variant) {
    store.add(object(name, variant));
  }

  @Operation(params = {"name", "variant"})
  public void update(int name, int variant) {
    store.update(object(name, variant));
  }

  @Operation(params = "name")
  public void delete(int name) {
    store.deleteByKey("ns/" + NAMES[name]);
  }

  /** Replaces everything with the objects named by the bits of {@code mask}, all of {@code variant}. */
  @Operation(params = {"mask", "variant"})
  public void replace(int mask, int variant) {
    List<StoreTestObject> objects = new ArrayList<>();
    for (int name = 0; name < NAMES.length; name++) {
      if ((mask & (1 << name)) != 0) {
        objects.add(object(name, variant));
      }
    }
    store.replace(objects, "");
  }

  @Operation(params = "value")
  public List<String> byApp(int value) {
    return describe(store.byIndex("app", VALUES[value]));
  }

  @Operation(params = "value")
  public List<String> byLabels(int value) {
    return describe(store.byIndex("labels", VALUES[value]));
  }

  @Operation
  public List<String> labelValues() {
    List<String> values = store.listIndexFuncValues("labels");
    Collections.sort(values);
    return values;
  }

  @Operation
  public List<String> list() {
    return describe(store.list());
  }

  /** Every index holds exactly the keys of the objects having each value. */
  @Validate
  public void indexesAgreeWithTheObjects() {
    List<StoreTestObject> objects = store.list();
    for (Map.Entry<String, IndexFunc<StoreTestObject>> index : store.indexers().entrySet()) {
      List<String> expected = new ArrayList<>();
      for (StoreTestObject o : objects) {
        for (String value : index.getValue().values(o)) {
          expected.add(value + "=" + o.key());
        }
      }
      List<String> actual = new ArrayList<>();
      for (String value : store.listIndexFuncValues(index.getKey())) {
        List<String> keys = store.indexKeys(index.getKey(), value);
        if (keys.isEmpty()) {
          throw new AssertionError("index " + index.getKey() + " keeps an empty bucket for " + value);
        }
        keys.forEach(k -> actual.add(value + "=" + k));
      }
      Collections.sort(actual);
      Collections.sort(expected);
      if (!actual.equals(expected)) {
        throw new AssertionError("index " + index.getKey() + " holds " + actual + ", the objects " + expected);
      }
    }
  }

  @Test
  void modelChecking_writesAndReadsAreLinearizable_andIndexesAgreeWithTheObjects() {
    ModelChecks.options(1, 150, 2)
        // an update moving a key between values, read meanwhile
        .addCustomScenario(ModelChecks.scenario(getClass(), "add(0, 3)", "update(0, 2) | byApp(0)", ""))
        // a replace, read meanwhile
        .addCustomScenario(ModelChecks.scenario(getClass(), "add(0, 1) add(1, 2)",
            "replace(2, 3) | byLabels(0) byApp(1)", "labelValues()"))
        .check(getClass());
  }
}
