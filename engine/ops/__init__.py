"""The op table: every differentiable op, forward and backward side by side, by family."""
