package dev.mcpfusion.core.edge;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A byte pipe whose ends any thread may use (unlike {@code PipedInputStream}, which breaks when a
 * writing thread ends): writes are queued whole, {@code close()} on the output end is end of input.
 */
final class Pipe {
  private static final byte[] EOF = new byte[0];
  private final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();

  final Out out = new Out();

  /** The writing end; never throws. */
  final class Out extends OutputStream {
    @Override
    public void write(int b) {
      chunks.add(new byte[] {(byte) b});
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (len > 0) {
        chunks.add(Arrays.copyOfRange(b, off, off + len));
      }
    }

    @Override
    public void close() {
      chunks.add(EOF);
    }
  }

  final InputStream in = new InputStream() {
    private byte[] current = new byte[0];
    private int position;
    private boolean ended;

    private boolean fill() throws IOException {
      while (!ended && position == current.length) {
        try {
          byte[] next = chunks.take();
          if (next == EOF) {
            ended = true;
            chunks.add(EOF); // later reads see the end too
          } else {
            current = next;
            position = 0;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        }
      }
      return position < current.length;
    }

    @Override
    public int read() throws IOException {
      return fill() ? current[position++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (!fill()) {
        return -1;
      }
      int n = Math.min(len, current.length - position);
      System.arraycopy(current, position, b, off, n);
      position += n;
      return n;
    }
  };
}
