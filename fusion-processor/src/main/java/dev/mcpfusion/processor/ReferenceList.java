package dev.mcpfusion.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code references()} into a generated router or presenter: the references its source
 * names whose router is outside the compilation, and those of the already compiled presenters
 * ({@code from}, nested views of another module) it reaches, for {@code build()} to check against
 * every registered router. Nothing is written when there are none (the SPI default is the empty
 * list).
 */
final class ReferenceList {
  private ReferenceList() {}

  static void addTo(TypeSpec.Builder type, List<ReferenceStep.Unchecked> unchecked) {
    addTo(type, unchecked, List.of());
  }

  static void addTo(TypeSpec.Builder type, List<ReferenceStep.Unchecked> unchecked,
      List<ClassName> from) {
    if (unchecked.isEmpty() && from.isEmpty()) {
      return;
    }
    ClassName reference = Sources.spi("Reference");
    TypeName listType = ParameterizedTypeName.get(ClassName.get(List.class), reference);
    List<CodeBlock> items = new ArrayList<>();
    for (ReferenceStep.Unchecked ref : unchecked) {
      items.add(CodeBlock.of("new $T($S, $S)", reference, ref.site(), ref.target()));
    }
    MethodSpec.Builder m = MethodSpec.methodBuilder("references").addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC).returns(listType)
        .addJavadoc("References to routers outside this compilation, for {@code build()} to check.\n");
    if (from.isEmpty()) {
      m.addStatement("return $T.of(\n$>$>$L$<$<)", List.class, CodeBlock.join(items, ",\n"));
    } else {
      if (items.isEmpty()) {
        m.addStatement("$T all = new $T<>()", listType, ArrayList.class);
      } else {
        m.addStatement("$T all = new $T<>($T.of(\n$>$>$L$<$<))", listType, ArrayList.class,
            List.class, CodeBlock.join(items, ",\n"));
      }
      for (ClassName presenter : from) {
        m.addStatement("all.addAll($T.INSTANCE.references())", presenter);
      }
      m.addStatement("return all");
    }
    type.addMethod(m.build());
  }
}
