package dev.mcpfusion.maven;

import dev.mcpfusion.maven.ApiModel.Body;
import dev.mcpfusion.maven.ApiModel.JType;
import dev.mcpfusion.maven.ApiModel.JType.Kind;
import dev.mcpfusion.maven.ApiModel.Model;
import dev.mcpfusion.maven.ApiModel.Operation;
import dev.mcpfusion.maven.ApiModel.Param;
import dev.mcpfusion.maven.ApiModel.Result;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One operation of the document as an action: its parameters (path, query, header; a secret-like
 * header is the connector's, not an input), its JSON body filled through a profile, its first
 * successful JSON answer and the error statuses the document describes.
 */
final class OperationReader {
  private final OpenApiReader reader;
  private final OpenAPI api;
  private final Map<String, Model> models;

  OperationReader(OpenApiReader reader, OpenAPI api, Map<String, Model> models) {
    this.reader = reader;
    this.api = api;
    this.models = models;
  }

  Operation operation(String id, String method, String path, PathItem item,
      io.swagger.v3.oas.models.Operation op, String where, Set<String> methods) {
    // Operation parameters override path-level ones of the same name and location.
    Map<String, Parameter> byKey = new TreeMap<>();
    Map<String, String> pointers = new TreeMap<>();
    String pathWhere = where.substring(0, where.lastIndexOf('/'));
    collect(item.getParameters(), pathWhere, byKey, pointers);
    collect(op.getParameters(), where, byKey, pointers);
    List<Param> params = new ArrayList<>();
    Set<String> javaNames = new HashSet<>();
    for (Map.Entry<String, Parameter> e : byKey.entrySet()) {
      Parameter p = e.getValue();
      String at = pointers.get(e.getKey());
      if ("cookie".equals(p.getIn())) {
        throw new OpenApiReader.Skip(at, "the cookie parameter " + p.getName(), "send it as a header the connector sets");
      }
      if ("header".equals(p.getIn()) && OpenApiReader.secretLike(p.getName())) {
        continue; // a credential is the connector's to set (ProxyUpstreams.Builder.header), never an agent's input
      }
      if (p.getSchema() == null) {
        throw new OpenApiReader.Skip(at, "the parameter " + p.getName() + " has no schema", "give it a schema");
      }
      JType t = reader.type(p.getSchema(), at + "/schema", JavaText.pascal(id) + JavaText.pascal(p.getName()));
      if (t.kind() == Kind.MODEL || (t.kind() == Kind.LIST && t.element().kind() == Kind.MODEL)) {
        throw new OpenApiReader.Skip(at, "the object parameter " + p.getName(), "pass objects in a JSON request body");
      }
      boolean required = "path".equals(p.getIn()) || Boolean.TRUE.equals(p.getRequired());
      String java = OpenApiReader.uniqueIn(javaNames, JavaText.camel(p.getName()));
      params.add(new Param(p.getName(), java, p.getIn(), t, OpenApiReader.description(p.getDescription()), required,
          SchemaConstraints.of(p.getSchema(), t, required)));
    }
    Body body = body(id, method, op, where, javaNames);
    Result result = result(id, op, where);
    java.util.SortedMap<Integer, String> documented = new TreeMap<>();
    if (op.getResponses() != null) {
      for (Map.Entry<String, ApiResponse> r : op.getResponses().entrySet()) {
        if (r.getKey().matches("[45]\\d\\d")) {
          documented.put(Integer.parseInt(r.getKey()), OpenApiReader.description(resolve(r.getValue()).getDescription()));
        }
      }
    }
    String summary = JavaText.oneLine(op.getSummary());
    String detail = JavaText.oneLine(op.getDescription());
    String text = summary.isEmpty() ? detail : detail.isEmpty() || detail.equals(summary) ? summary
        : summary.replaceAll("[.]$", "") + ". " + detail;
    if (text.isEmpty()) {
      text = "Calls " + method + " " + path + ".";
    }
    return new Operation(id, method, OpenApiReader.uniqueIn(methods, JavaText.camel(id)), path, text, where,
        List.copyOf(params), body, result, java.util.Collections.unmodifiableSortedMap(documented));
  }

  private void collect(List<Parameter> list, String where, Map<String, Parameter> byKey, Map<String, String> pointers) {
    if (list == null) {
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      Parameter r = resolve(list.get(i), where + "/parameters/" + i);
      byKey.put(r.getIn() + " " + r.getName(), r);
      pointers.put(r.getIn() + " " + r.getName(), where + "/parameters/" + i);
    }
  }

  private Body body(String id, String method, io.swagger.v3.oas.models.Operation op, String where,
      Set<String> javaNames) {
    if (op.getRequestBody() == null) {
      return null;
    }
    RequestBody rb = op.getRequestBody();
    if (rb.get$ref() != null) {
      String name = rb.get$ref().substring(rb.get$ref().lastIndexOf('/') + 1);
      rb = api.getComponents().getRequestBodies().get(name);
    }
    String at = where + "/requestBody";
    MediaType json = json(rb.getContent());
    if (json == null || json.getSchema() == null) {
      throw new OpenApiReader.Skip(at, "a request body that is not JSON (" + types(rb.getContent()) + ")",
          "offer an application/json body");
    }
    JType t = reader.type(json.getSchema(), at + "/content/application~1json/schema", JavaText.pascal(id) + "Body");
    if (t.kind() != Kind.MODEL) {
      throw new OpenApiReader.Skip(at, "a request body that is not one object", "make the body an object schema");
    }
    Model m = models.get(t.name());
    if (m != null && !ApiModel.anyFillable(m, models)) {
      throw new OpenApiReader.Skip(at, "a request body with no property an agent may fill (all hidden or read-only)",
          "mark a property writable and not secret-like");
    }
    String profile = method.equals("PATCH") ? "update" : "create";
    return new Body(OpenApiReader.uniqueIn(javaNames, "body"), t.name(), profile, OpenApiReader.description(rb.getDescription()));
  }

  private Result result(String id, io.swagger.v3.oas.models.Operation op, String where) {
    if (op.getResponses() == null) {
      return new Result("VOID", null);
    }
    String code = null;
    for (String c : new TreeMap<>(op.getResponses()).keySet()) {
      if (c.startsWith("2")) {
        code = c;
        break;
      }
    }
    if (code == null && op.getResponses().containsKey("default")) {
      code = "default";
    }
    if (code == null) {
      return new Result("VOID", null);
    }
    ApiResponse response = resolve(op.getResponses().get(code));
    if (response.getContent() == null || response.getContent().isEmpty()) {
      return new Result("VOID", null);
    }
    String at = where + "/responses/" + code;
    MediaType json = json(response.getContent());
    if (json == null || json.getSchema() == null) {
      throw new OpenApiReader.Skip(at, "an answer that is not JSON (" + types(response.getContent()) + ")",
          "offer an application/json answer");
    }
    JType t = reader.type(json.getSchema(), at + "/content/application~1json/schema", JavaText.pascal(id) + "Result");
    if (t.kind() == Kind.MODEL || (t.kind() == Kind.LIST && t.element().kind() == Kind.MODEL)) {
      String model = t.kind() == Kind.MODEL ? t.name() : t.element().name();
      Model m = models.get(model);
      if (m != null && !m.presentable()) {
        throw new OpenApiReader.Skip(at, "an answer of " + model + ", all of whose properties are hidden",
            "an agent would read nothing of it; return a schema with readable properties");
      }
      return new Result(t.kind() == Kind.MODEL ? "SINGLE" : "LIST", t);
    }
    if (t.kind() == Kind.LIST) {
      throw new OpenApiReader.Skip(at, "an answer that is a list of plain values", "wrap the list in an object");
    }
    return new Result("VALUE", t);
  }

  private Parameter resolve(Parameter p, String where) {
    if (p.get$ref() == null) {
      return p;
    }
    String name = p.get$ref().substring(p.get$ref().lastIndexOf('/') + 1);
    Parameter r = api.getComponents() == null || api.getComponents().getParameters() == null ? null
        : api.getComponents().getParameters().get(name);
    if (r == null) {
      throw new OpenApiReader.Skip(where, "a parameter reference that resolves to nothing (" + p.get$ref() + ")",
          "declare it under components.parameters");
    }
    return r;
  }

  private ApiResponse resolve(ApiResponse r) {
    if (r.get$ref() == null || api.getComponents() == null || api.getComponents().getResponses() == null) {
      return r;
    }
    ApiResponse target = api.getComponents().getResponses().get(r.get$ref().substring(r.get$ref().lastIndexOf('/') + 1));
    return target == null ? r : target;
  }

  private static MediaType json(Content content) {
    if (content == null) {
      return null;
    }
    for (Map.Entry<String, MediaType> e : new TreeMap<>(content).entrySet()) {
      String type = e.getKey().toLowerCase(Locale.ROOT);
      if (type.equals("application/json") || type.endsWith("+json") || type.equals("*/*")) {
        return e.getValue();
      }
    }
    return null;
  }

  private static String types(Content content) {
    return content == null ? "no content" : String.join(", ", new TreeMap<>(content).keySet());
  }
}
