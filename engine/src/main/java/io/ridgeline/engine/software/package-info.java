/**
 * Software stacks as data: what a training framework or serving runtime does that changes time and memory (attention
 * kernel, gradient and reduction formats, communication overlap, low-precision recipe, launch model, recomputation
 * policy, memory reserve; batching and runtime costs for serving). Profiles live in {@code catalog/stacks.yaml}, every
 * value with its source, and are chosen per case ({@code framework}), per point ({@code software}) or swept. A profile
 * holds mechanisms the engine models, never a correction factor for a source.
 */
package io.ridgeline.engine.software;
