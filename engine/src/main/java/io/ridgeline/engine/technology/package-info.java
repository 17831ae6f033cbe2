/**
 * Hardware from technology: catalogues of logic nodes, DRAM types, links and switches, and {@link
 * io.ridgeline.engine.technology.ChipBuilder}, which derives a {@link io.ridgeline.engine.hardware.Chip} from a node,
 * die area, power budget, SRAM, DRAM and links (MODEL.md sec. 2). Node scaling follows DeepFlow's recipe (Ardalani,
 * Pal, Gupta, UCLA) as used by Kundu et al. 2024 ("Optimus"); the series is anchored on the A100 at 7 nm.
 * Equations and the rebuild errors of A100/H100/B200 are in docs/TECHNOLOGY.md.
 */
package io.ridgeline.engine.technology;
