package dev.mcpfusion.lock;

import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.annotation.Rules;
import dev.mcpfusion.core.Suggestion;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.FieldDescriptor;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.core.spi.Verb;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Hand-built descriptors shaped like the processor's, with one knob per recorded property. */
final class LockFixtures {
  private LockFixtures() {}

  record InvoiceView(String id, long totalCents) {}

  /** A view with a data-dependent {@code @Rules} method. */
  record DynamicView(String id, long totalCents) {
    @Rules
    static List<String> rules(DynamicView v) {
      return List.of();
    }
  }

  /** A view with {@code @Ui} methods. */
  record UiView(String id, long totalCents) {
    @dev.mcpfusion.annotation.Ui
    static dev.mcpfusion.core.UiBlock table(List<UiView> shown) {
      return null;
    }

    @dev.mcpfusion.annotation.Ui
    static dev.mcpfusion.core.UiBlock chart(List<UiView> shown) {
      return null;
    }
  }

  static final class TenantGuard {}

  static final class AuditLog {}

  /** A binding like a generated {@code V_Presenter}, every static property settable. */
  static final class View implements PresenterBinding<Object, Object> {
    Class<?> viewType = InvoiceView.class;
    List<String> fields = new ArrayList<>(List.of("id", "totalCents"));
    String idDescription = "Invoice ID, e.g. INV-0042";
    String totalDescription = "Total in integer cents";
    String totalType = "integer";
    List<String> extraRules = new ArrayList<>(List.of("Money is in integer cents."));
    int limit = 50;
    /** {@code false} models {@code @Describe(rule = false)}: descriptions in the schema only. */
    boolean describedRules = true;

    @Override public int spiVersion() {
      return dev.mcpfusion.core.spi.FusionSpi.VERSION;
    }

    @Override public Class<Object> modelType() {
      return Object.class;
    }

    @SuppressWarnings("unchecked")
    @Override public Class<Object> viewType() {
      return (Class<Object>) viewType;
    }

    @Override public Object fromModel(Object model) {
      throw new UnsupportedOperationException("the lockfile never presents data");
    }

    @Override public Object fromMap(Map<String, ?> row) {
      throw new UnsupportedOperationException("the lockfile never presents data");
    }

    @Override public Map<String, Object> toTree(Object view) {
      throw new UnsupportedOperationException("the lockfile never presents data");
    }

    @Override public String outputSchemaJson() {
      StringBuilder props = new StringBuilder();
      for (String f : fields) {
        if (props.length() > 0) {
          props.append(',');
        }
        switch (f) {
          case "id" -> props.append("\"id\":{\"type\":\"string\",\"description\":\"" + idDescription + "\"}");
          case "totalCents" -> props.append("\"totalCents\":{\"type\":\"" + totalType
              + "\",\"description\":\"" + totalDescription + "\"}");
          default -> props.append("\"" + f + "\":{\"type\":\"string\"}");
        }
      }
      return "{\"type\":\"object\",\"properties\":{" + props + "},\"additionalProperties\":false}";
    }

    @Override public List<String> fieldNames() {
      return List.copyOf(fields);
    }

    @Override public List<String> staticRules() {
      List<String> rules = new ArrayList<>();
      if (describedRules && fields.contains("id")) {
        rules.add("id: " + idDescription);
      }
      if (describedRules && fields.contains("totalCents")) {
        rules.add("totalCents: " + totalDescription);
      }
      rules.addAll(extraRules);
      return rules;
    }

    @Override public List<String> dynamicRules(Object view) {
      return List.of();
    }

    @Override public List<Suggestion> suggestions(Object view) {
      return List.of();
    }

    @Override public int agentLimit() {
      return limit;
    }
  }

  /** One action's knobs; {@link #build()} makes the descriptor. */
  static final class Act {
    String name;
    String description;
    Verb verb = Verb.QUERY;
    boolean readOnly = true;
    boolean destructive = false;
    boolean idempotent = false;
    boolean openWorld = false;
    List<FieldDescriptor> fields = new ArrayList<>();
    View presenter = new View();
    ResultShape result = ResultShape.SINGLE;
    CachePolicy cache = CachePolicy.DEFAULT;
    List<String> invalidates = new ArrayList<>();
    List<Class<?>> middleware = new ArrayList<>();
    boolean beanValidation = false;
    String title = "";
    String inputSchema;
    List<String> scopes = new ArrayList<>();

    Act(String name, String description) {
      this.name = name;
      this.description = description;
    }

    ActionDescriptor build() {
      return new ActionDescriptor(name, name, description, verb, readOnly, destructive, idempotent,
          openWorld, fields, List.of(), presenter, result,
          presenter == null ? ElementKind.NONE : ElementKind.MODEL,
          presenter == null ? "{\"type\":\"string\"}" : null, cache, invalidates, middleware,
          List.of(), beanValidation, title, inputSchema, scopes);
    }
  }

  static FieldDescriptor field(String name, String type, boolean required, String description) {
    String schema = "{\"type\":\"" + type + "\"" + (required && type.equals("string") ? ",\"minLength\":1" : "")
        + (description.isEmpty() ? "" : ",\"description\":\"" + description + "\"") + "}";
    return new FieldDescriptor(name, schema, required, description, false);
  }

  /** The billing-like router: list_invoices, get_invoice, void_invoice; {@code tweak} edits it first. */
  static RouterDescriptor billing(Consumer<Map<String, Act>> tweak) {
    return billing(tweak, List.of(TenantGuard.class));
  }

  static RouterDescriptor billing(Consumer<Map<String, Act>> tweak, List<Class<?>> routerMiddleware) {
    Act list = new Act("list_invoices", "List invoices, newest first");
    list.fields.add(field("status", "string", false, "Only invoices in this status"));
    list.result = ResultShape.COLLECTION;
    list.cache = CachePolicy.NO_STORE;
    Act get = new Act("get_invoice", "Get one invoice");
    get.fields.add(field("id", "string", true, ""));
    Act voids = new Act("void_invoice", "Void an open invoice");
    voids.verb = Verb.MUTATION;
    voids.readOnly = false;
    voids.destructive = true;
    voids.fields.add(field("id", "string", true, ""));
    voids.invalidates.add("billing.*");
    Map<String, Act> acts = new java.util.LinkedHashMap<>();
    acts.put(list.name, list);
    acts.put(get.name, get);
    acts.put(voids.name, voids);
    tweak.accept(acts);
    return new RouterDescriptor("billing", "Invoices: list, inspect and void them", Object.class,
        List.of(), acts.values().stream().map(Act::build).toList(), routerMiddleware);
  }

  static RouterDescriptor billing() {
    return billing(acts -> { });
  }

  static Contract contract(Consumer<Map<String, Act>> tweak) {
    return Contract.of(List.of(billing(tweak)), LockProfile.defaults());
  }
}
