package dev.mcpfusion.core.spi;

/** The version of the generated-code contract. Bump on any incompatible change to this package. */
public final class FusionSpi {
  /** The SPI version this runtime implements; generated classes return theirs from {@code spiVersion()}. */
  public static final int VERSION = 2;

  private FusionSpi() {}
}
