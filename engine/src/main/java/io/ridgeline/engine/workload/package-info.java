/** What is trained or served: decoder-only transformer architectures (MHA/GQA/MQA, GeLU/SwiGLU, MoE) and the bundled model catalogue (catalog/models.csv), each row with its source. */
package io.ridgeline.engine.workload;
