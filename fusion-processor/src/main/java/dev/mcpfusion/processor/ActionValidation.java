package dev.mcpfusion.processor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

import dev.mcpfusion.processor.RouterModel.ActionModel;
import dev.mcpfusion.processor.RouterModel.Param;
import dev.mcpfusion.processor.RouterModel.ParamKind;
import dev.mcpfusion.processor.RouterModel.Result;

/**
 * One {@code @Query}/{@code @Mutation}/{@code @Action} method: its name and description, hints,
 * {@code @Invalidates}, {@code @CacheControl}, {@code @Use}, parameters (JSON input, {@code @Context}
 * or the common record) and result.
 */
final class ActionValidation {
  private static final String REQUEST_CONTEXT = "dev.mcpfusion.core.RequestContext";

  private final Elements elements;
  private final Types types;
  private final Reporter reporter;
  private final ResultAnalysis results;
  private final Fillables fillables;
  private final RawSchemas rawSchemas;

  ActionValidation(Elements elements, Types types, Reporter reporter, Views views,
      javax.annotation.processing.Filer filer) {
    this.elements = elements;
    this.types = types;
    this.reporter = reporter;
    this.results = new ResultAnalysis(elements, types, reporter, views);
    this.fillables = new Fillables(elements, types, reporter);
    this.rawSchemas = new RawSchemas(elements, filer, reporter);
  }

  static String suggestName(String name) {
    String s = Names.snake(name).toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    if (s.isEmpty() || !Character.isLetter(s.charAt(0))) {
      s = "a" + s;
    }
    return s;
  }

  /** The classes of a {@code @Use} on {@code e}, in order. */
  List<TypeMirror> use(Element e) {
    AnnotationMirror use = Mirrors.find(e, Props.ANN + "Use");
    List<TypeMirror> out = new ArrayList<>();
    if (use != null) {
      for (AnnotationValue v : Mirrors.list(elements, use, "value")) {
        out.add((TypeMirror) v.getValue());
      }
    }
    return out;
  }

  /**
   * Validates one action method; returns its model, or {@code null} after reporting. {@code common}
   * and {@code commonFields} are the router's common record (or {@code null}) and its fields.
   */
  ActionModel action(TypeElement common, List<Inputs.Site> commonFields,
      ExecutableElement method, AnnotationMirror verb, String verbName, String where,
      Inputs inputs, Set<String> commonNames) {
    boolean ok = true;
    if (method.getModifiers().contains(Modifier.PRIVATE) || !method.getTypeParameters().isEmpty()) {
      reporter.report(Diagnostic.INACCESSIBLE_ACTION, method, where);
      return null;
    }
    String explicit = Mirrors.string(elements, verb, "name");
    String name = explicit.isEmpty() ? Names.snake(method.getSimpleName().toString()) : explicit;
    if (!Names.ROUTER_OR_ACTION.matcher(name).matches()) {
      AnnotationValue nameValue = Mirrors.explicitValue(verb, "name");
      String why = name.contains(".")
          ? "contains a dot, but dots separate router and action in references such as"
              + " billing.void_invoice"
          : "does not match [a-z][a-z0-9_]*";
      reporter.reportOn(Diagnostic.INVALID_ACTION_NAME, method, verb, nameValue, where, name, why,
          suggestName(name));
      ok = false;
    }
    String description = Mirrors.string(elements, verb, "description");
    if (description.isEmpty()) {
      description = firstSentence(elements.getDocComment(method));
    }
    if (description.isEmpty()) {
      reporter.report(Diagnostic.MISSING_DESCRIPTION, method, where, verbName);
      ok = false;
    }
    boolean readOnly;
    boolean destructive;
    switch (verbName) {
      case "Query":
        readOnly = true;
        destructive = false;
        break;
      case "Mutation":
        readOnly = false;
        destructive = true;
        break;
      default:
        readOnly = Mirrors.bool(elements, verb, "readOnly");
        destructive = Mirrors.bool(elements, verb, "destructive");
    }
    List<String> invalidated = List.of();
    AnnotationMirror invalidates = Mirrors.find(method, Props.ANN + "Invalidates");
    if (invalidates != null) {
      invalidated = Mirrors.strings(elements, invalidates, "value");
      if (verbName.equals("Query")) {
        reporter.reportOn(Diagnostic.INVALIDATES_ON_QUERY, method, invalidates, null, where);
        ok = false;
      }
    }
    AnnotationMirror cache = Mirrors.find(method, Props.ANN + "CacheControl");
    String cachePolicy = "DEFAULT";
    if (cache != null) {
      AnnotationValue v = Mirrors.value(elements, cache, "value");
      if (v != null && v.getValue() instanceof VariableElement) {
        cachePolicy = ((VariableElement) v.getValue()).getSimpleName().toString();
      }
    }

    List<String> scopes = scopes(method, where);
    if (scopes == null) {
      ok = false;
    }

    List<Param> params = new ArrayList<>();
    String inputSchema = null;
    VariableElement schemaParam = null;
    for (VariableElement p : method.getParameters()) {
      TypeMirror t = p.asType();
      String pname = p.getSimpleName().toString();
      boolean requestContext = t.getKind() == TypeKind.DECLARED
          && ((TypeElement) ((DeclaredType) t).asElement()).getQualifiedName()
              .contentEquals(REQUEST_CONTEXT);
      if (requestContext || Mirrors.find(p, Props.ANN + "Context") != null) {
        params.add(new Param(p, ParamKind.CONTEXT, null));
        continue;
      }
      if (common != null && types.isSameType(types.erasure(t), types.erasure(common.asType()))) {
        params.add(new Param(p, ParamKind.COMMON, null));
        continue;
      }
      AnnotationMirror schema = Mirrors.find(p, RawSchemas.ANNOTATION);
      if (schema != null) {
        String problem = !RawSchemas.isArgumentsMap(t)
            ? "its type is " + Views.display(t) + ", not Map<String, Object>"
            : schemaParam != null ? "'" + schemaParam.getSimpleName() + "' already takes the whole input"
            : null;
        String json = problem == null ? rawSchemas.load(p, schema, where) : null;
        if (problem != null) {
          reporter.report(Diagnostic.INPUT_SCHEMA_PARAMETER, p, where, pname, problem);
        }
        if (json == null) {
          ok = false;
          continue;
        }
        inputSchema = json;
        schemaParam = p;
        params.add(new Param(p, ParamKind.SCHEMA, null));
        continue;
      }
      AnnotationMirror input = Mirrors.find(p, Fillables.INPUT);
      if (input != null) {
        Inputs.Site site = fillables.site(p, input, where, inputs);
        if (site != null && commonNames.contains(pname)) {
          reporter.report(Diagnostic.COMMON_FIELD_CLASH, p, where, pname, Names.display(common),
              common.getSimpleName());
          site = null;
        }
        ok &= site != null;
        if (site != null) {
          params.add(new Param(p, ParamKind.JSON, site));
        }
        continue;
      }
      if (Mirrors.find(p, Props.ANN + "Guarded") != null) {
        reporter.report(Diagnostic.GUARDED_PARAMETER, p, where, pname);
        ok = false;
        continue;
      }
      if (Mirrors.find(p, Props.ANN + "Hidden") != null) {
        reporter.report(Diagnostic.HIDDEN_PARAMETER, p, where, pname);
        ok = false;
        continue;
      }
      Inputs.In in;
      try {
        in = inputs.resolve(t, List.of());
      } catch (Inputs.Unsupported u) {
        reporter.report(Diagnostic.UNSUPPORTED_PARAMETER_TYPE, p, where, pname, Views.display(t),
            u.getMessage());
        ok = false;
        continue;
      }
      if (!inputs.reportMarked(in, pname, p, null, null, where)) {
        ok = false;
        continue;
      }
      if (commonNames.contains(pname)) {
        reporter.report(Diagnostic.COMMON_FIELD_CLASH, p, where, pname, Names.display(common),
            common.getSimpleName());
        ok = false;
        continue;
      }
      List<AnnotationMirror> annotations = new ArrayList<>(p.getAnnotationMirrors());
      annotations.addAll(t.getAnnotationMirrors());
      Inputs.Site site = inputs.site(pname, p, in, annotations,
          inputs.description(List.of(p), t), false, Mirrors.nullable(List.of(p), List.of(t)));
      ok &= HeaderMarks.read(site, Mirrors.find(p, Props.ANN + "McpHeader"), p, where, elements,
          reporter);
      params.add(new Param(p, ParamKind.JSON, site));
    }
    List<Inputs.Site> topLevel = new ArrayList<>(commonFields);
    params.stream().filter(p -> p.site() != null).forEach(p -> topLevel.add(p.site()));
    ok &= HeaderMarks.unique(topLevel, method, where, reporter);
    if (schemaParam != null) {
      ok &= onlyInput(schemaParam, params, common, where);
    }
    boolean beanValidation = false;
    Set<String> seen = new HashSet<>();
    for (Inputs.Site s : commonFields) {
      beanValidation |= Inputs.beanValidation(s, seen);
    }
    for (Param p : params) {
      if (p.site() != null) {
        beanValidation |= Inputs.beanValidation(p.site(), seen);
      }
    }
    Result result = results.analyse(method, verb, verbName, where);
    if (!ok || result == null) {
      return null;
    }
    params = FieldsAndPages.check(method, where, result, commonFields, params, reporter);
    if (params == null || !serializeKey(method, where, commonFields, params, inputSchema)) {
      return null;
    }
    return new ActionModel(method, name, description, verbName.toUpperCase(java.util.Locale.ROOT),
        readOnly, destructive, Mirrors.bool(elements, verb, "idempotent"),
        Mirrors.bool(elements, verb, "openWorld"), params, result, cachePolicy, invalidated,
        use(method), beanValidation, inputSchema, scopes);
  }

  /**
   * Whether a {@code @SerializeOn} of {@code method} names one of the action's input arguments and
   * a queue of 0 or more (reported when not). An {@code @InputSchema} document's arguments are not
   * known here: any name is accepted for it.
   */
  private boolean serializeKey(ExecutableElement method, String where,
      List<Inputs.Site> commonFields, List<Param> params, String inputSchema) {
    AnnotationMirror serialize = Mirrors.find(method, Props.ANN + "SerializeOn");
    if (serialize == null) {
      return true;
    }
    String key = Mirrors.string(elements, serialize, "value");
    List<String> names = new ArrayList<>();
    for (Inputs.Site s : commonFields) {
      names.add(s.name);
    }
    for (Param p : params) {
      if (p.kind() == ParamKind.JSON && p.site() != null) {
        names.add(p.site().name);
      }
    }
    if (inputSchema == null && !names.contains(key)) {
      reporter.reportOn(Diagnostic.UNKNOWN_SERIALIZE_KEY, method, serialize,
          Mirrors.explicitValue(serialize, "value"), where, key, Names.didYouMean(key, names),
          names.isEmpty() ? "it has none" : String.join(", ", names));
      return false;
    }
    AnnotationValue queue = Mirrors.explicitValue(serialize, "queue");
    if (queue != null && queue.getValue() instanceof Integer n && n < 0) {
      reporter.reportOn(Diagnostic.INVALID_SERIALIZE_QUEUE, method, serialize, queue, where, n);
      return false;
    }
    return true;
  }

  /**
   * Whether the {@code @InputSchema} parameter {@code schema} is the action's only input (no other
   * field, no common record); reports it when it is not.
   */
  private boolean onlyInput(VariableElement schema, List<Param> params, TypeElement common,
      String where) {
    String name = schema.getSimpleName().toString();
    for (Param p : params) {
      if (p.kind() == ParamKind.JSON) {
        reporter.report(Diagnostic.INPUT_SCHEMA_PARAMETER, schema, where, name,
            "the action also takes '" + p.element().getSimpleName() + "' from the agent");
        return false;
      }
    }
    if (common != null) {
      reporter.report(Diagnostic.INPUT_SCHEMA_PARAMETER, schema, where, name, "the router's common"
          + " record " + common.getSimpleName() + " adds its fields to every action's input");
      return false;
    }
    return true;
  }

  /**
   * The scopes of a {@code @Scopes} on {@code e} (a router or an action), in order without
   * duplicates; {@code null} after reporting a name that is no RFC 6749 scope token.
   */
  List<String> scopes(Element e, String where) {
    return scopes(elements, reporter, e, where);
  }

  /**
   * As {@link #scopes(Element, String)}; a {@code null} {@code reporter} reports nothing (the
   * element's own step reports it), the answer is still {@code null} for a bad name.
   */
  static List<String> scopes(Elements elements, Reporter reporter, Element e, String where) {
    AnnotationMirror mirror = Mirrors.find(e, Props.ANN + "Scopes");
    if (mirror == null) {
      return List.of();
    }
    java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
    boolean ok = true;
    for (AnnotationValue v : Mirrors.list(elements, mirror, "value")) {
      String scope = (String) v.getValue();
      String why = scopeProblem(scope);
      if (why != null) {
        if (reporter != null) {
          reporter.reportOn(Diagnostic.INVALID_SCOPE, e, mirror, v, where, scope, why);
        }
        ok = false;
      } else {
        names.add(scope);
      }
    }
    return ok ? List.copyOf(names) : null;
  }

  /** Why {@code scope} is not an RFC 6749 scope-token (%x21 / %x23-5B / %x5D-7E), or {@code null}. */
  static String scopeProblem(String scope) {
    if (scope.isEmpty()) {
      return "it is empty";
    }
    for (int i = 0; i < scope.length(); i++) {
      char c = scope.charAt(i);
      if (c == ' ') {
        return "it contains a space (a token carries one scope; list several as separate values)";
      }
      if (c < 0x21 || c > 0x7E || c == '"' || c == '\\') {
        return "it contains " + (c < 0x21 || c > 0x7E
            ? String.format("the character U+%04X", (int) c) : "'" + c + "'");
      }
    }
    return null;
  }

  /** First sentence of a Javadoc comment: inline tags unwrapped, block tags dropped. */
  static String firstSentence(String doc) {
    if (doc == null) {
      return "";
    }
    StringBuilder text = new StringBuilder();
    for (String line : doc.split("\n", -1)) {
      String t = line.strip();
      if (t.startsWith("@")) {
        break;
      }
      text.append(t).append(' ');
    }
    String s = text.toString()
        .replaceAll("\\{@(?:code|literal|link|linkplain)\\s+([^}]*)\\}", "$1")
        .replaceAll("<[^>]+>", "")
        .replaceAll("\\s+", " ")
        .strip();
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == '.' && (i + 1 == s.length() || Character.isWhitespace(s.charAt(i + 1)))) {
        return s.substring(0, i + 1);
      }
    }
    return s;
  }
}
