package dev.mcpfusion.core.server;

import dev.mcpfusion.annotation.CachePolicy;
import dev.mcpfusion.core.Redaction;
import dev.mcpfusion.core.presenter.Presentation;
import dev.mcpfusion.core.presenter.ResultPresenter;
import dev.mcpfusion.core.redact.EgressRedaction;
import dev.mcpfusion.core.redact.Redactions;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.PresenterBinding;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.Verb;
import dev.mcpfusion.wire.References;
import dev.mcpfusion.wire.Reply;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Presents what a prompt or resource handler returned through its presenter: the same strip,
 * limit and rules step as a tool result ({@link ResultPresenter}), then the view's own redaction,
 * so no {@code @Hidden} value can leave.
 */
final class FeaturePresenter {
  private static final Logger LOG = LoggerFactory.getLogger(FeaturePresenter.class);

  private final Redaction serverRedaction;
  private final References references;
  private final Map<String, Presentation> presentations = new ConcurrentHashMap<>();
  /** The redaction of each presenter's answers, fitted to its view; empty for none. */
  private final Map<PresenterBinding<?, ?>, Optional<Redactor>> viewRedactors =
      new ConcurrentHashMap<>();

  FeaturePresenter(Redaction serverRedaction, References references) {
    this.serverRedaction = serverRedaction;
    this.references = references;
  }

  /** The redaction of the answers {@code binding} presents; {@code null}: the server-wide one. */
  Redactor answers(PresenterBinding<?, ?> binding) {
    return binding == null ? null : viewRedactor(binding);
  }

  /**
   * The redaction of {@code binding}'s answers, fitted to its view: the view's {@code @Redact}, else
   * the server-wide one; {@code null} for no presenter or nothing to mask.
   */
  Redactor viewRedactor(PresenterBinding<?, ?> binding) {
    if (binding == null) {
      return null;
    }
    return viewRedactors.computeIfAbsent(binding, b -> {
      ActionDescriptor d = syntheticDescriptor(b, b.viewType().getSimpleName(), ResultShape.SINGLE,
          ElementKind.MODEL);
      return Optional.ofNullable(Redactions.forAction(d, serverRedaction,
          Presentation.of(d).staticRules()).redactor());
    }).orElse(null);
  }

  private static ActionDescriptor syntheticDescriptor(PresenterBinding<?, ?> binding, String name,
      ResultShape shape, ElementKind kind) {
    return new ActionDescriptor(name, name, name, Verb.QUERY, true, false, false, false, List.of(),
        List.of(), binding, shape, kind, null, CachePolicy.DEFAULT, List.of(), List.of(),
        List.of(), false);
  }

  /**
   * Presents {@code data} through {@code binding}: the shape (one item, a collection, an array, an
   * {@code Optional}, a lazy {@code Iterable} or {@code Stream}) and the item kind (model, view,
   * row) are read from the value, then the same step as a tool result runs.
   */
  Reply present(PresenterBinding<?, ?> binding, Object data, String name) {
    if (data == null) {
      throw new IllegalStateException("returned null");
    }
    ResultShape shape;
    Object sample;
    Object value = data;
    AutoCloseable close = null;
    if (data instanceof Optional<?> o) {
      shape = ResultShape.OPTIONAL;
      sample = o.orElse(null);
    } else if (data instanceof Collection<?> c) {
      shape = ResultShape.COLLECTION;
      sample = c.isEmpty() ? null : c.iterator().next();
    } else if (data instanceof Object[] array) {
      shape = ResultShape.ARRAY;
      sample = array.length == 0 ? null : array[0];
    } else if (data instanceof Stream<?> || (data instanceof Iterable<?> && !(data instanceof Map<?, ?>)
        && !(data instanceof tools.jackson.databind.JsonNode))) {
      // Lazy: look at the first item only, then hand the rest on unread.
      Iterator<?> it = data instanceof Stream<?> s ? s.iterator() : ((Iterable<?>) data).iterator();
      close = data instanceof AutoCloseable c ? c : null;
      shape = ResultShape.ITERABLE;
      sample = it.hasNext() ? it.next() : null;
      value = sample == null ? it : new Peeked(sample, it);
    } else {
      shape = ResultShape.SINGLE;
      sample = data;
    }
    ElementKind kind = sample == null || binding.modelType().isInstance(sample) ? ElementKind.MODEL
        : binding.viewType().isInstance(sample) ? ElementKind.VIEW
        : sample instanceof Map<?, ?> ? ElementKind.MAP
        : sample instanceof tools.jackson.databind.JsonNode ? ElementKind.TREE
        : ElementKind.MODEL;
    String key = binding.getClass().getName() + '/' + shape + '/' + kind;
    Presentation presentation = presentations.computeIfAbsent(key, k -> Presentation.of(
        syntheticDescriptor(binding, name, shape, kind)));
    try {
      Reply reply = ResultPresenter.present(presentation, value, references);
      // The view's own redaction, as for a tool presenting it: its @Redact paths need the view.
      Redactor redactor = viewRedactor(binding);
      return redactor == null ? reply
          : EgressRedaction.success(redactor, reply, shape, references, new Tally());
    } finally {
      if (close != null) {
        try {
          close.close();
        } catch (Exception e) {
          LOG.warn("Closing the data of {} failed", name, e);
        }
      }
    }
  }

  /** An iterator whose first item was already read. */
  private static final class Peeked implements Iterator<Object> {
    private Object first;
    private boolean firstTaken;
    private final Iterator<?> rest;

    Peeked(Object first, Iterator<?> rest) {
      this.first = first;
      this.rest = rest;
    }

    @Override
    public boolean hasNext() {
      return !firstTaken || rest.hasNext();
    }

    @Override
    public Object next() {
      if (!firstTaken) {
        firstTaken = true;
        Object out = first;
        first = null;
        return out;
      }
      return rest.next();
    }
  }
}
