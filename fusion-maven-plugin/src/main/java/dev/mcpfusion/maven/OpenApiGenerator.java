package dev.mcpfusion.maven;

import dev.mcpfusion.maven.ApiModel.EnumType;
import dev.mcpfusion.maven.ApiModel.Model;
import dev.mcpfusion.maven.ApiModel.Unsupported;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * OpenAPI document → connector sources, without Maven: reads and checks the document, maps it
 * ({@link OpenApiReader}) and writes every source ({@link ModelSources}, {@link RouterSource}). The same document and configuration give the same bytes.
 */
final class OpenApiGenerator {
  private OpenApiGenerator() {}

  /** The generated sources by path under the source root, and what was left out. */
  record Output(SortedMap<String, String> sources, List<Unsupported> unsupported) {}

  /** A document or configuration the goal cannot work with: the message names it and the fix. */
  static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;

    Refusal(String message) {
      super(message);
    }
  }

  static Output generate(Path document, OpenApiConfig config) throws Refusal {
    List<String> problems = config.problems();
    if (!problems.isEmpty()) {
      throw new Refusal("The openapi goal's configuration is not usable:\n  " + String.join("\n  ", problems));
    }
    OpenAPI api = parse(document);
    ApiModel model;
    try {
      model = new OpenApiReader(api, config).read();
    } catch (IllegalArgumentException badConfiguration) {
      throw new Refusal("The openapi goal's configuration does not fit " + document.getFileName() + ": "
          + badConfiguration.getMessage());
    }
    String name = document.getFileName().toString();
    Map<String, Model> models = new LinkedHashMap<>();
    model.models().forEach(m -> models.put(m.name(), m));
    ModelSources sources = new ModelSources(config.packageName(), name, models);
    String dir = config.packageName().replace('.', '/') + "/";
    SortedMap<String, String> out = new TreeMap<>();
    for (Model m : model.models()) {
      out.put(dir + m.name() + ".java", sources.model(m));
      if (m.presentable()) {
        out.put(dir + m.name() + "View.java", sources.view(m));
      }
    }
    for (EnumType e : model.enums()) {
      out.put(dir + e.name() + ".java", sources.enumType(e));
    }
    out.put(dir + "Nullable.java", sources.nullable());
    out.put(dir + config.routerClass() + ".java", RouterSource.write(sources, model, config, name));
    return new Output(out, model.unsupported());
  }

  /** The parsed document, or a refusal that names the file and what the parser said. */
  static OpenAPI parse(Path document) throws Refusal {
    if (!Files.isRegularFile(document)) {
      throw new Refusal("The OpenAPI document " + document + " does not exist: set <spec> (or -Dmcpfusion.openapi.spec)"
          + " to the path of a .yaml or .json file.");
    }
    String text;
    try {
      text = Files.readString(document, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new Refusal("Cannot read the OpenAPI document " + document + ": " + e.getMessage());
    }
    if (text.lines().anyMatch(l -> l.matches("\\s*[\"']?swagger[\"']?\\s*:\\s*[\"']?2\\..*"))) {
      throw new Refusal(document + " is a Swagger 2.0 document: convert it to OpenAPI 3.0 or 3.1 first"
          + " (for example with swagger-converter), then generate from that.");
    }
    ParseOptions options = new ParseOptions();
    options.setResolve(false);
    SwaggerParseResult result = new OpenAPIV3Parser().readContents(text, null, options);
    OpenAPI api = result.getOpenAPI();
    List<String> messages = result.getMessages() == null ? List.of() : result.getMessages();
    if (api == null || api.getOpenapi() == null
        || !(api.getOpenapi().startsWith("3.0") || api.getOpenapi().startsWith("3.1"))) {
      throw new Refusal(document + " is not a readable OpenAPI 3.0 or 3.1 document"
          + (messages.isEmpty() ? " (no \"openapi: 3.x\" field)" : ":\n  " + String.join("\n  ", messages))
          + "\nFix the document (an OpenAPI validator names each problem), then generate again.");
    }
    return api;
  }
}
