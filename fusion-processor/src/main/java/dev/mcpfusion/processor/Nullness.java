package dev.mcpfusion.processor;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Finds type-use {@code @Nullable} annotations that javac does not show to processors: before
 * JDK 22, javac drops the type annotations of a record read from a class file. When the class file
 * has one on a field (top-level type), the property is nullable although its mirror says nothing;
 * callers report {@code [fusion/NullnessInvisible]} and treat it as nullable.
 */
final class Nullness {
  private final ProcessingEnvironment env;
  private final Map<String, Set<String>> cache = new HashMap<>();

  Nullness(ProcessingEnvironment env) {
    this.env = env;
  }

  /** Whether the class file of {@code type} marks field {@code field} with a type-use Nullable. */
  boolean inClassFile(TypeElement type, String field) {
    String key = env.getElementUtils().getBinaryName(type).toString();
    Set<String> fields = cache.computeIfAbsent(key, k -> read(type));
    return fields.contains(field);
  }

  private Set<String> read(TypeElement type) {
    if (fromSource(type)) {
      return Set.of();
    }
    Element e = type;
    while (!(e instanceof PackageElement)) {
      e = e.getEnclosingElement();
    }
    String pkg = ((PackageElement) e).getQualifiedName().toString();
    String binary = env.getElementUtils().getBinaryName(type).toString();
    String simple = pkg.isEmpty() ? binary : binary.substring(pkg.length() + 1);
    try {
      FileObject file = env.getFiler().getResource(StandardLocation.CLASS_PATH, pkg,
          simple + ".class");
      try (InputStream in = file.openInputStream()) {
        return nullableFields(new DataInputStream(in));
      }
    } catch (IOException | RuntimeException notReadable) {
      return Set.of();
    }
  }

  /** Whether javac has the element's source (a source element shows its annotations). */
  private boolean fromSource(TypeElement type) {
    try {
      return com.sun.source.util.Trees.instance(env).getTree(type) != null;
    } catch (RuntimeException | LinkageError notJavac) {
      return true;
    }
  }

  /** The fields whose own type (empty type path) carries a type annotation named Nullable. */
  static Set<String> nullableFields(DataInputStream in) throws IOException {
    if (in.readInt() != 0xCAFEBABE) {
      return Set.of();
    }
    in.readUnsignedShort();
    in.readUnsignedShort();
    int count = in.readUnsignedShort();
    String[] utf8 = new String[count];
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1:
          utf8[i] = in.readUTF();
          break;
        case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
          in.skipNBytes(4);
          break;
        case 5: case 6:
          in.skipNBytes(8);
          i++;
          break;
        case 7: case 8: case 16: case 19: case 20:
          in.skipNBytes(2);
          break;
        case 15:
          in.skipNBytes(3);
          break;
        default:
          throw new IOException("constant pool tag " + tag);
      }
    }
    in.skipNBytes(6);
    in.skipNBytes(2L * in.readUnsignedShort());
    Set<String> out = new HashSet<>();
    int fields = in.readUnsignedShort();
    for (int f = 0; f < fields; f++) {
      in.skipNBytes(2);
      String name = utf8[in.readUnsignedShort()];
      in.skipNBytes(2);
      int attributes = in.readUnsignedShort();
      for (int a = 0; a < attributes; a++) {
        String attribute = utf8[in.readUnsignedShort()];
        int length = in.readInt();
        if ("RuntimeVisibleTypeAnnotations".equals(attribute)
            || "RuntimeInvisibleTypeAnnotations".equals(attribute)) {
          int n = in.readUnsignedShort();
          for (int k = 0; k < n; k++) {
            int target = in.readUnsignedByte();
            skipTargetInfo(in, target);
            int pathLength = in.readUnsignedByte();
            in.skipNBytes(2L * pathLength);
            String descriptor = utf8[in.readUnsignedShort()];
            skipElementValuePairs(in);
            if (target == 0x13 && pathLength == 0 && descriptor != null
                && simpleName(descriptor).equals("Nullable")) {
              out.add(name);
            }
          }
        } else {
          in.skipNBytes(length);
        }
      }
    }
    return out;
  }

  private static String simpleName(String descriptor) {
    String d = descriptor.endsWith(";") ? descriptor.substring(0, descriptor.length() - 1) : descriptor;
    return d.substring(Math.max(d.lastIndexOf('/'), d.lastIndexOf('$')) + 1);
  }

  private static void skipTargetInfo(DataInputStream in, int target) throws IOException {
    switch (target) {
      case 0x00: case 0x01: case 0x16:
        in.skipNBytes(1);
        break;
      case 0x10: case 0x17: case 0x42: case 0x43: case 0x44: case 0x45: case 0x46:
        in.skipNBytes(2);
        break;
      case 0x11: case 0x12:
        in.skipNBytes(2);
        break;
      case 0x13: case 0x14: case 0x15:
        break;
      case 0x40: case 0x41:
        in.skipNBytes(6L * in.readUnsignedShort());
        break;
      case 0x47: case 0x48: case 0x49: case 0x4A: case 0x4B:
        in.skipNBytes(3);
        break;
      default:
        throw new IOException("type annotation target " + target);
    }
  }

  private static void skipElementValuePairs(DataInputStream in) throws IOException {
    int pairs = in.readUnsignedShort();
    for (int i = 0; i < pairs; i++) {
      in.skipNBytes(2);
      skipElementValue(in);
    }
  }

  private static void skipElementValue(DataInputStream in) throws IOException {
    int tag = in.readUnsignedByte();
    switch (tag) {
      case 'e':
        in.skipNBytes(4);
        break;
      case '@':
        in.skipNBytes(2);
        skipElementValuePairs(in);
        break;
      case '[': {
        int n = in.readUnsignedShort();
        for (int i = 0; i < n; i++) {
          skipElementValue(in);
        }
        break;
      }
      default:
        in.skipNBytes(2);
    }
  }
}
