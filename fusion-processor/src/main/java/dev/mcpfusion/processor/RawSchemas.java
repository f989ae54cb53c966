package dev.mcpfusion.processor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.Filer;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * {@code @InputSchema}: reads the schema document a parameter names from the class path, checks
 * it (JSON; an object schema of {@code "type": "object"}; a known {@code $schema} dialect; every
 * {@code $ref} inside the document, so nothing is fetched at run time) and returns it as compact
 * JSON in document order, which the generated descriptor carries unchanged.
 */
final class RawSchemas {
  static final String ANNOTATION = Props.ANN + "InputSchema";

  /** The dialects the run-time validator knows. */
  private static final Set<String> DIALECTS = Set.of(
      "https://json-schema.org/draft/2020-12/schema",
      "https://json-schema.org/draft/2019-09/schema",
      "http://json-schema.org/draft-07/schema#",
      "http://json-schema.org/draft-07/schema",
      "http://json-schema.org/draft-06/schema#",
      "http://json-schema.org/draft-04/schema#");

  /** Where a resource may be when the processor runs (Maven copies resources to the class output first). */
  private static final List<StandardLocation> LOCATIONS = List.of(StandardLocation.CLASS_OUTPUT,
      StandardLocation.CLASS_PATH, StandardLocation.SOURCE_PATH);

  private final Elements elements;
  private final Filer filer;
  private final Reporter reporter;

  RawSchemas(Elements elements, Filer filer, Reporter reporter) {
    this.elements = elements;
    this.filer = filer;
    this.reporter = reporter;
  }

  /** Whether {@code t} is {@code Map<String, Object>}. */
  static boolean isArgumentsMap(TypeMirror t) {
    if (t.getKind() != TypeKind.DECLARED) {
      return false;
    }
    DeclaredType d = (DeclaredType) t;
    List<? extends TypeMirror> args = d.getTypeArguments();
    return ((TypeElement) d.asElement()).getQualifiedName().contentEquals("java.util.Map")
        && args.size() == 2 && args.get(0).toString().equals("java.lang.String")
        && args.get(1).toString().equals("java.lang.Object");
  }

  /**
   * The compact JSON of the schema {@code p}'s {@code @InputSchema} names, or {@code null} after
   * reporting why it cannot be used.
   */
  String load(VariableElement p, AnnotationMirror annotation, String where) {
    String pname = p.getSimpleName().toString();
    String path = Mirrors.string(elements, annotation, "value");
    AnnotationValue value = Mirrors.explicitValue(annotation, "value");
    String text = read(path.startsWith("/") ? path.substring(1) : path);
    if (text == null) {
      reporter.reportOn(Diagnostic.INPUT_SCHEMA_NOT_FOUND, p, annotation, value, where, pname, path);
      return null;
    }
    Object tree;
    try {
      tree = JsonReader.read(text);
    } catch (JsonReader.Malformed e) {
      reporter.reportOn(Diagnostic.INPUT_SCHEMA_INVALID, p, annotation, value, where, pname, path,
          "is not JSON: " + e.getMessage());
      return null;
    }
    String problem = problem(tree);
    if (problem != null) {
      reporter.reportOn(Diagnostic.INPUT_SCHEMA_INVALID, p, annotation, value, where, pname, path,
          problem);
      return null;
    }
    return JsonText.write(tree);
  }

  private String read(String path) {
    for (StandardLocation location : LOCATIONS) {
      try {
        FileObject file = filer.getResource(location, "", path);
        try (InputStream in = file.openInputStream()) {
          return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
      } catch (IOException | IllegalArgumentException | IllegalStateException notThere) {
        // Not in this location (or the location is not set): try the next.
      }
    }
    return null;
  }

  /** Why {@code tree} cannot be an input schema, or {@code null}. */
  private static String problem(Object tree) {
    if (!(tree instanceof Map)) {
      return "is not a JSON object";
    }
    Map<?, ?> schema = (Map<?, ?>) tree;
    if (!"object".equals(schema.get("type"))) {
      return "does not say \"type\": \"object\" at its top level (an MCP tool's input is an object)";
    }
    Object dialect = schema.get("$schema");
    if (dialect != null && !DIALECTS.contains(dialect)) {
      return "names the dialect " + JsonText.write(dialect) + " in $schema, which the validator"
          + " does not know (use https://json-schema.org/draft/2020-12/schema, MCP's default)";
    }
    return outsideRef(tree, "");
  }

  /** The first {@code $ref} that leaves the document, said as a problem, or {@code null}. */
  private static String outsideRef(Object node, String at) {
    if (node instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) node).entrySet()) {
        String here = at + "/" + e.getKey();
        if (e.getKey().equals("$ref") && e.getValue() instanceof String
            && !((String) e.getValue()).startsWith("#")) {
          return "has \"$ref\": " + JsonText.write(e.getValue()) + " at " + here + ", which points"
              + " outside the document (nothing is fetched at run time; move the schema it names"
              + " under $defs and refer to it as \"#/$defs/...\")";
        }
        String inner = outsideRef(e.getValue(), here);
        if (inner != null) {
          return inner;
        }
      }
    } else if (node instanceof List) {
      List<?> list = (List<?>) node;
      for (int i = 0; i < list.size(); i++) {
        String inner = outsideRef(list.get(i), at + "/" + i);
        if (inner != null) {
          return inner;
        }
      }
    }
    return null;
  }
}
