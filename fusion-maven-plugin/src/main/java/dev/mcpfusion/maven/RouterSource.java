package dev.mcpfusion.maven;

import dev.mcpfusion.maven.ApiModel.Body;
import dev.mcpfusion.maven.ApiModel.Operation;
import dev.mcpfusion.maven.ApiModel.Param;
import dev.mcpfusion.maven.ApiModel.Unsupported;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The router: one action per operation, {@code GET} a {@code @Query} and every other method a
 * {@code @Mutation}, idempotent unless {@code POST} or {@code PATCH}; each handler builds its call
 * with fusion-outbound's {@code ProxyUpstreams.call}, the one REST call and status mapping that
 * {@code @Proxy} actions use too.
 */
final class RouterSource {
  private RouterSource() {}

  static String write(ModelSources sources, ApiModel api, OpenApiConfig config, String documentName) {
    TreeSet<String> imports = new TreeSet<>(List.of("dev.mcpfusion.annotation.Router",
        "dev.mcpfusion.outbound.ProxyUpstreams"));
    StringBuilder methods = new StringBuilder();
    for (Operation op : api.operations()) {
      methods.append('\n');
      method(methods, imports, op);
    }
    StringBuilder out = sources.start(imports);
    out.append("/**\n * ").append(JavaText.doc(api.title().isEmpty() ? "The API" : api.title()))
        .append(", generated from {@code ").append(JavaText.doc(documentName))
        .append("}: one action per operation, each calling the upstream through {@link ProxyUpstreams}");
    if (!api.server().isEmpty()) {
      out.append(" (the document's server: {@code ").append(JavaText.doc(api.server())).append("})");
    }
    out.append(".\n");
    if (!api.unsupported().isEmpty()) {
      out.append(" *\n * <p>Not generated:\n * <ul>\n");
      for (Unsupported u : api.unsupported()) {
        out.append(" *   <li>{@code ").append(JavaText.doc(u.pointer())).append("}: ")
            .append(JavaText.doc(u.what())).append("</li>\n");
      }
      out.append(" * </ul>\n");
    }
    out.append(" */\n@Router(value = ").append(JavaText.literal(config.routerName()));
    String description = api.title().isEmpty() ? "Calls the API" : api.title();
    out.append(", description = ").append(JavaText.literal(description)).append(")\n")
        .append("public final class ").append(config.routerClass()).append(" {\n")
        .append("  /** The upstream every action calls: configure it by this name in the {@link ProxyUpstreams} passed in. */\n")
        .append("  public static final String UPSTREAM = ").append(JavaText.literal(upstreamName(config))).append(";\n\n")
        .append("  private final ProxyUpstreams upstreams;\n\n")
        .append("  /**\n   * The actions, calling the API through {@code upstreams}.\n   *\n")
        .append("   * @throws IllegalStateException if {@code upstreams} do not configure {@link #UPSTREAM}\n   */\n")
        .append("  public ").append(config.routerClass()).append("(ProxyUpstreams upstreams) {\n")
        .append("    upstreams.require(UPSTREAM, ").append(JavaText.literal(config.routerName() + "_*")).append(");\n")
        .append("    this.upstreams = upstreams;\n  }\n")
        .append(methods).append("}\n");
    return out.toString();
  }

  /** The router's name as an upstream name ({@code [a-z][a-z0-9-]*}): {@code _} becomes {@code -}. */
  static String upstreamName(OpenApiConfig config) {
    return config.routerName().replace('_', '-');
  }

  private static void method(StringBuilder out, TreeSet<String> imports, Operation op) {
    String verb = op.query() ? "Query" : "Mutation";
    imports.add("dev.mcpfusion.annotation." + verb);
    out.append("  /** {@code ").append(op.method()).append(' ').append(JavaText.doc(op.path()))
        .append("} ({@code ").append(JavaText.doc(op.operationId())).append("}). */\n");
    out.append("  @").append(verb).append("(description = ").append(JavaText.literal(op.description()));
    String returns;
    String finish;
    switch (op.result().shape()) {
      case "SINGLE", "LIST" -> {
        String model = OpenApiReader.modelOf(op.result().type());
        out.append(", presenter = ").append(model).append("View.class");
        imports.add("java.util.Map");
        boolean single = op.result().shape().equals("SINGLE");
        if (!single) {
          imports.add("java.util.List");
        }
        returns = single ? "Map<String, Object>" : "List<Map<String, Object>>";
        finish = single ? ".object()" : ".array()";
      }
      case "VALUE" -> {
        returns = op.result().type().java(false);
        finish = switch (op.result().type().kind()) {
          case STRING, INTEGER, LONG, DOUBLE, BOOLEAN, ENUM -> ".value(" + returns + ".class)";
          default -> throw new IllegalStateException(op.result().toString());
        };
      }
      default -> {
        returns = "void";
        finish = ".send()";
      }
    }
    if (op.idempotent()) {
      out.append(", idempotent = true");
    }
    out.append(")\n  public ").append(returns).append(' ').append(op.javaName()).append('(');
    StringBuilder params = new StringBuilder();
    for (Param p : op.params()) {
      if (params.length() > 0) {
        params.append(", ");
      }
      params.append(annotations(imports, p.description(), p.constraints().annotations(), p.required()));
      ModelSources.addImports(imports, p.type());
      params.append(p.type().java(false)).append(' ').append(p.java());
    }
    Body body = op.body();
    if (body != null) {
      imports.add("dev.mcpfusion.annotation.Input");
      if (params.length() > 0) {
        params.append(", ");
      }
      params.append(annotations(imports, body.description(), List.of(), true))
          .append("@Input(profile = \"").append(body.profile()).append("\") ")
          .append(body.model()).append(' ').append(body.java());
    }
    out.append(params).append(") {\n    ");
    if (!returns.equals("void")) {
      out.append("return ");
    }
    out.append("upstreams.call(UPSTREAM, \"").append(op.method()).append("\", ").append(JavaText.literal(op.path()))
        .append(')');
    for (Param p : op.params()) {
      String call = switch (p.in()) {
        case "path" -> "path";
        case "header" -> "header";
        default -> "query";
      };
      out.append("\n        .").append(call).append('(').append(JavaText.literal(p.wire())).append(", ")
          .append(p.java()).append(')');
    }
    if (body != null) {
      out.append("\n        .body(").append(body.java()).append(')');
    }
    for (Map.Entry<Integer, String> d : op.documented().entrySet()) {
      out.append("\n        .documented(").append(d.getKey()).append(", ")
          .append(JavaText.literal(d.getValue())).append(')');
    }
    out.append("\n        ").append(finish).append(";\n  }\n");
  }

  private static String annotations(TreeSet<String> imports, String description, List<String> constraints,
      boolean required) {
    StringBuilder a = new StringBuilder();
    if (!description.isEmpty()) {
      imports.add("dev.mcpfusion.annotation.Describe");
      a.append("@Describe(").append(JavaText.literal(description)).append(") ");
    }
    for (String c : constraints) {
      imports.add("jakarta.validation.constraints." + c.substring(1).replaceAll("\\(.*", ""));
      a.append(c).append(' ');
    }
    if (!required) {
      a.append("@Nullable ");
    }
    return a.toString();
  }
}
