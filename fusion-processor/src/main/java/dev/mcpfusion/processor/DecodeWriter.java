package dev.mcpfusion.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.WildcardTypeName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Modifier;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.Types;

import dev.mcpfusion.processor.RouterModel.ActionModel;
import dev.mcpfusion.processor.RouterModel.Param;
import dev.mcpfusion.processor.RouterModel.ParamKind;

/**
 * The decode side of {@code X_Fusion}: one {@code decode_<action>} method per action and the
 * helpers it needs (one per input record or collection type, shared by name; compiled
 * {@code Pattern} constants), in the order JSON types → unknown keys → constraints.
 */
final class DecodeWriter {
  private static final ClassName ARGS = Sources.spi("Args");
  private static final ClassName PROBLEMS = Sources.spi("Problems");
  private static final TypeName MAP_OF_ANY = ParameterizedTypeName.get(ClassName.get(Map.class),
      ClassName.get(String.class), WildcardTypeName.subtypeOf(Object.class));
  private static final TypeName LIST_OF_ANY = ParameterizedTypeName.get(ClassName.get(List.class),
      WildcardTypeName.subtypeOf(Object.class));
  private static final TypeName CLASS_LIST = ParameterizedTypeName.get(ClassName.get(List.class),
      ParameterizedTypeName.get(ClassName.get(Class.class), WildcardTypeName.subtypeOf(Object.class)));

  private final Types types;

  DecodeWriter(Types types) {
    this.types = types;
  }

  /** {@code decode_<action>}: the arguments of one action, decoded and checked in order. */
  MethodSpec decodeAction(RouterModel r, ActionModel a) {
    DecodeWriter gen = this;
    MethodSpec.Builder m = MethodSpec.methodBuilder("decode_" + a.name())
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(ArrayTypeName.of(Object.class))
        .addParameter(MAP_OF_ANY, "args")
        .addParameter(PROBLEMS, "p");
    if (a.inputSchema() != null) {
      // The runtime validated the arguments against the document before decode runs.
      m.addStatement("Object[] out = new Object[$L]", a.params().size());
      for (int j = 0; j < a.params().size(); j++) {
        if (a.params().get(j).kind() == ParamKind.SCHEMA) {
          m.addStatement("out[$L] = $T.document(args)", j, ARGS);
        }
      }
      return m.addStatement("return out").build();
    }
    List<String> accepted = new ArrayList<>();
    for (int i = 0; i < r.commonFields().size(); i++) {
      Inputs.Site s = r.commonFields().get(i);
      accepted.add(s.name);
      m.addStatement("Object rawC$L = args.get($S)", i, s.name);
      m.addStatement("$T c$L = $L", gen.local(s.in.value()), i,
          gen.decode(s.in, CodeBlock.of("rawC$L", i), CodeBlock.of("$S", s.name)));
    }
    for (int j = 0; j < a.params().size(); j++) {
      Param p = a.params().get(j);
      if (p.kind() != ParamKind.JSON) {
        continue;
      }
      Inputs.Site s = p.site();
      accepted.add(s.name);
      m.addStatement("Object raw$L = args.get($S)", j, s.name);
      m.addStatement("$T v$L = $L", gen.local(s.in.value()), j,
          gen.decode(s.in, CodeBlock.of("raw$L", j), CodeBlock.of("$S", s.name)));
    }
    m.addStatement("$T.rejectUnknown(args, $S, $L, p)", ARGS, "", PresenterWriter.listOf(accepted));
    for (int i = 0; i < r.commonFields().size(); i++) {
      Inputs.Site s = r.commonFields().get(i);
      gen.checks(m, s, "c" + i, "rawC" + i, CodeBlock.of("$S", s.name));
    }
    for (int j = 0; j < a.params().size(); j++) {
      Param p = a.params().get(j);
      if (p.kind() == ParamKind.JSON) {
        gen.checks(m, p.site(), "v" + j, "raw" + j, CodeBlock.of("$S", p.site().name));
      }
    }
    m.addStatement("Object[] out = new Object[$L]", a.params().size());
    for (int j = 0; j < a.params().size(); j++) {
      Param p = a.params().get(j);
      if (p.kind() == ParamKind.JSON) {
        if (p.site().in.kind == Inputs.In.Kind.OPTIONAL) {
          m.addStatement("out[$L] = $T.ofNullable(v$L)", j, Optional.class, j);
        } else {
          m.addStatement("out[$L] = v$L", j, j);
        }
      } else if (p.kind() == ParamKind.COMMON) {
        List<CodeBlock> ctorArgs = new ArrayList<>();
        for (int i = 0; i < r.commonFields().size(); i++) {
          ctorArgs.add(r.commonFields().get(i).in.kind == Inputs.In.Kind.OPTIONAL
              ? CodeBlock.of("$T.ofNullable(c$L)", Optional.class, i) : CodeBlock.of("c$L", i));
        }
        m.addStatement("out[$L] = p.isEmpty() ? new $T($L) : null", j, ClassName.get(r.common()),
            CodeBlock.join(ctorArgs, ", "));
      }
    }
    m.addStatement("return out");
    return m.build();
  }

  /** Per-router generation state: decoder helpers and compiled patterns, in first-use order. */

  final Map<String, MethodSpec> helpers = new LinkedHashMap<>();
  final Map<String, String> helperNames = new HashMap<>();
  final Set<String> usedNames = new HashSet<>();
  final Map<String, String> patterns = new HashMap<>();
  private int marks;
  final List<FieldSpec> patternFields = new ArrayList<>();

  TypeName local(Inputs.In in) {
    switch (in.kind) {
      case SCALAR:
        return ClassName.bestGuess(in.scalar.boxed);
      case ENUM:
      case RECORD:
        return ClassName.get(in.type);
      case OPTIONAL:
        return local(in.element);
      default:
        return Sources.plain(in.mirror);
    }
  }

  CodeBlock decode(Inputs.In in, CodeBlock raw, CodeBlock path) {
    switch (in.kind) {
      case SCALAR:
        return CodeBlock.of("$T.$N($L, $L, p)", ARGS, in.scalar.argsMethod, raw, path);
      case ENUM:
        return CodeBlock.of("$T.enumValue($L, $L, $T.class, p)", ARGS, raw, path,
            ClassName.get(in.type));
      case OPTIONAL:
        return decode(in.element, raw, path);
      default:
        return CodeBlock.of("$N($L, $L, p)", helper(in), raw, path);
    }
  }

  private String helper(Inputs.In in) {
    String key = in.mirror.getKind() == TypeKind.DECLARED && in.kind == Inputs.In.Kind.RECORD
        ? in.type.getQualifiedName().toString() : Sources.plain(in.mirror).toString();
    if (in instanceof Fillables.ProfileIn) {
      key += "#" + ((Fillables.ProfileIn) in).profile;
    }
    String name = helperNames.get(key);
    if (name != null) {
      return name;
    }
    String base = "decode" + label(in);
    name = base;
    for (int n = 2; !usedNames.add(name); n++) {
      name = base + n;
    }
    helperNames.put(key, name);
    helpers.put(key, null);
    MethodSpec.Builder m = MethodSpec.methodBuilder(name)
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .addParameter(Object.class, "raw")
        .addParameter(String.class, "path")
        .addParameter(PROBLEMS, "p");
    if (in.kind == Inputs.In.Kind.RECORD) {
      recordBody(m, in);
    } else {
      listBody(m, in);
    }
    helpers.put(key, m.build());
    return name;
  }

  private String label(Inputs.In in) {
    switch (in.kind) {
      case SCALAR:
        return in.scalar.boxed.substring(in.scalar.boxed.lastIndexOf('.') + 1);
      case ENUM:
      case RECORD:
        return Names.flatName(in.type)
            + (in instanceof Fillables.ProfileIn ? ((Fillables.ProfileIn) in).label() : "");
      case LIST:
        return "ListOf" + label(in.element);
      case SET:
        return "SetOf" + label(in.element);
      case ARRAY:
        return "ArrayOf" + (in.element.primitive()
            ? Character.toUpperCase(in.element.mirror.toString().charAt(0))
                + in.element.mirror.toString().substring(1) : label(in.element));
      default:
        return label(in.element);
    }
  }

  private void recordBody(MethodSpec.Builder m, Inputs.In in) {
    ClassName record = ClassName.get(in.type);
    m.returns(record);
    if (in instanceof Fillables.ProfileIn && !((Fillables.ProfileIn) in).anyRequired()) {
      // Nothing in the profile is required: a left-out object builds a model with nothing filled.
      m.addStatement("$T obj = raw == null ? $T.of() : $T.object(raw, path, p)", MAP_OF_ANY,
          Map.class, ARGS);
    } else {
      m.addStatement("$T obj = $T.object(raw, path, p)", MAP_OF_ANY, ARGS);
    }
    m.beginControlFlow("if (obj == null)").addStatement("return null").endControlFlow();
    m.addStatement("int before = p.list().size()");
    List<String> names = new ArrayList<>();
    for (int i = 0; i < in.components.size(); i++) {
      Inputs.Site c = in.components.get(i);
      names.add(c.name);
      m.addStatement("Object raw$L = obj.get($S)", i, c.name);
      m.addStatement("String path$L = $T.path(path, $S)", i, ARGS, c.name);
      m.addStatement("$T v$L = $L", local(c.in.value()), i,
          decode(c.in, CodeBlock.of("raw$L", i), CodeBlock.of("path$L", i)));
    }
    m.addStatement("$T.rejectUnknown(obj, path, $L, p)", ARGS, PresenterWriter.listOf(names));
    for (int i = 0; i < in.components.size(); i++) {
      checks(m, in.components.get(i), "v" + i, "raw" + i, CodeBlock.of("path$L", i));
    }
    m.beginControlFlow("if (p.list().size() != before)").addStatement("return null")
        .endControlFlow();
    if (in instanceof Fillables.ProfileIn) {
      Fillables.writeBuild(m, (Fillables.ProfileIn) in);
      return;
    }
    List<CodeBlock> args = new ArrayList<>();
    for (int i = 0; i < in.components.size(); i++) {
      args.add(in.components.get(i).in.kind == Inputs.In.Kind.OPTIONAL
          ? CodeBlock.of("$T.ofNullable(v$L)", Optional.class, i) : CodeBlock.of("v$L", i));
    }
    m.addStatement("return new $T($L)", record, CodeBlock.join(args, ", "));
  }

  private void listBody(MethodSpec.Builder m, Inputs.In in) {
    m.returns(Sources.plain(in.mirror));
    m.addStatement("$T arr = $T.array(raw, path, p)", LIST_OF_ANY, ARGS);
    m.beginControlFlow("if (arr == null)").addStatement("return null").endControlFlow();
    Inputs.In e = in.element;
    if (in.kind == Inputs.In.Kind.ARRAY) {
      TypeName component = Sources.plain(e.mirror);
      TypeName innermost = component;
      int dims = 0;
      while (innermost instanceof ArrayTypeName) {
        innermost = ((ArrayTypeName) innermost).componentType();
        dims++;
      }
      m.addStatement("$T out = new $T[arr.size()]$L", Sources.plain(in.mirror), innermost,
          "[]".repeat(dims));
    } else {
      boolean set = in.kind == Inputs.In.Kind.SET;
      m.addStatement("$T<$T> out = new $T<>(arr.size())", set ? Set.class : List.class, local(e),
          set ? LinkedHashSet.class : ArrayList.class);
    }
    m.beginControlFlow("for (int i = 0; i < arr.size(); i++)");
    m.addStatement("String at = $T.index(path, i)", ARGS);
    CodeBlock value = decode(e, CodeBlock.of("arr.get(i)"), CodeBlock.of("at"));
    if (in.kind == Inputs.In.Kind.ARRAY) {
      if (e.primitive()) {
        m.addStatement("$T e = $L", local(e), value);
        m.addStatement("$T.required(e, at, p)", ARGS);
        m.beginControlFlow("if (e != null)").addStatement("out[i] = e").endControlFlow();
      } else {
        m.addStatement("out[i] = $L", value);
      }
    } else {
      m.addStatement("out.add($L)", value);
    }
    m.endControlFlow();
    m.addStatement("return out");
  }

  void checks(MethodSpec.Builder m, Inputs.Site s, String value, String raw, CodeBlock path) {
    if (s.required) {
      String mark = s.constraints.requiredMessage == null ? null : mark(m);
      m.addStatement("$T.required($N, $L, p)", ARGS,
          s.in.value().kind == Inputs.In.Kind.RECORD ? raw : value, path);
      relabel(m, mark, s.constraints.requiredMessage);
    }
    for (Inputs.Check c : s.constraints.checks) {
      String mark = c.message == null ? null : mark(m);
      m.addStatement("$L", Sources.checkCall(c, value,
          c.regexp == null ? null : pattern(c.regexp, c.flags), path));
      relabel(m, mark, c.message);
    }
  }

  /** Declares a mark before a check whose problems get the constraint's own message. */
  private String mark(MethodSpec.Builder m) {
    String name = "mark" + marks++;
    m.addStatement("int $N = p.size()", name);
    return name;
  }

  private static void relabel(MethodSpec.Builder m, String mark, String message) {
    if (mark != null) {
      m.addStatement("p.relabelSince($N, $S)", mark, message);
    }
  }

  private String pattern(String regexp, List<String> flags) {
    String key = regexp + "\u0000" + flags;
    String name = patterns.get(key);
    if (name != null) {
      return name;
    }
    name = "PATTERN_" + patternFields.size();
    patterns.put(key, name);
    CodeBlock.Builder init = CodeBlock.builder().add("$T.compile($S", java.util.regex.Pattern.class,
        regexp);
    for (int i = 0; i < flags.size(); i++) {
      init.add(i == 0 ? ", $T.$N" : " | $T.$N", java.util.regex.Pattern.class, flags.get(i));
    }
    init.add(")");
    patternFields.add(FieldSpec.builder(java.util.regex.Pattern.class, name, Modifier.PRIVATE,
        Modifier.STATIC, Modifier.FINAL).initializer(init.build()).build());
    return name;
  }
}
