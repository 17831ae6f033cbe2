package io.ridgeline.engine.technology;

/**
 * Manufacturing cost of a derived chip and the formulas behind it. USD.
 *
 * @param diesPerWafer     gross dies on a 300 mm wafer
 * @param yieldFraction    negative-binomial die yield
 * @param goodDieUsd       wafer price / (dies per wafer x yield), per die
 * @param siliconUsd       all compute dies of one package
 * @param dramUsd          capacity x $/GiB
 * @param packageUsd       interposer + assembly and test
 * @param manufacturingUsd silicon + DRAM + package
 * @param priceUsd         manufacturing cost x vendor markup (what a buyer pays; used by the TCO model)
 */
public record DieCost(double diesPerWafer, double yieldFraction, double goodDieUsd, double siliconUsd, double dramUsd,
                      double packageUsd, double manufacturingUsd, double priceUsd) {
    /** 300 mm wafers (SEMI M1). */
    public static final double WAFER_DIAMETER_MM = 300;

    /** Gross dies per wafer: pi r^2 / A - pi d / sqrt(2A) (de Vries, IEEE TSM 2005, eq. 1; edge loss term). */
    public static double diesPerWafer(double dieAreaMm2) {
        double d = WAFER_DIAMETER_MM;
        double n = Math.PI * d * d / 4 / dieAreaMm2 - Math.PI * d / Math.sqrt(2 * dieAreaMm2);
        return Math.max(0, Math.floor(n));
    }

    /** Negative-binomial yield (1 + A D0 / alpha)^-alpha (Stapper 1983); A in cm^2, D0 in defects per cm^2. */
    public static double negativeBinomialYield(double dieAreaMm2, double defectsPerCm2, double clusteringAlpha) {
        return Math.pow(1 + dieAreaMm2 / 100 * defectsPerCm2 / clusteringAlpha, -clusteringAlpha);
    }
}
