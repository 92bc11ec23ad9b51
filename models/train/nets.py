"""Small convolutional networks in plain JAX, and their export to ONNX.

A network is a list of layer specs; parameters live in a dict. The same spec drives the
JAX forward pass used in training and the ONNX graph run by tract in tablelens, so the two
cannot drift apart. Layout is NCHW throughout.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


# Layer specs: ("conv", name, cin, cout, k, stride, dilation, relu)
#              ("up2",)                 nearest-neighbour upsampling by 2
#              ("save", slot)           remember the current tensor
#              ("concat", slot)         concatenate the remembered tensor on channels
#              ("flatten_dense", name, cin, cout)
#              ("l2norm",)


def conv(name, cin, cout, k=3, stride=1, dilation=1, relu=True):
    return ("conv", name, cin, cout, k, stride, dilation, relu)


def init_params(spec, key):
    params = {}
    for layer in spec:
        if layer[0] == "conv":
            _, name, cin, cout, k, _, _, relu = layer
            key, sub = jax.random.split(key)
            fan_in = cin * k * k
            scale = np.sqrt(2.0 / fan_in) if relu else np.sqrt(1.0 / fan_in)
            params[name + ".w"] = jax.random.normal(sub, (cout, cin, k, k)) * scale
            params[name + ".b"] = jnp.zeros((cout,))
        elif layer[0] == "flatten_dense":
            _, name, cin, cout = layer
            key, sub = jax.random.split(key)
            params[name + ".w"] = jax.random.normal(sub, (cin, cout)) * np.sqrt(1.0 / cin)
            params[name + ".b"] = jnp.zeros((cout,))
    return params


def forward(spec, params, x):
    saved = {}
    for layer in spec:
        kind = layer[0]
        if kind == "conv":
            _, name, _, _, k, stride, dil, relu = layer
            pad = dil * (k // 2)
            x = jax.lax.conv_general_dilated(
                x,
                params[name + ".w"],
                (stride, stride),
                [(pad, pad), (pad, pad)],
                rhs_dilation=(dil, dil),
                dimension_numbers=("NCHW", "OIHW", "NCHW"),
            )
            x = x + params[name + ".b"][None, :, None, None]
            if relu:
                x = jax.nn.relu(x)
        elif kind == "up2":
            x = jnp.repeat(jnp.repeat(x, 2, axis=2), 2, axis=3)
        elif kind == "save":
            saved[layer[1]] = x
        elif kind == "concat":
            x = jnp.concatenate([x, saved[layer[1]]], axis=1)
        elif kind == "flatten_dense":
            _, name, _, _ = layer
            x = x.reshape((x.shape[0], -1)) @ params[name + ".w"] + params[name + ".b"]
        elif kind == "l2norm":
            x = x / jnp.sqrt(jnp.sum(x * x, axis=1, keepdims=True) + 1e-12)
        else:
            raise ValueError(kind)
    return x


def export_onnx(spec, params, input_shape, path, doc):
    """Writes the network as an ONNX graph with input `input` and output `output`.

    `input_shape` is (C, H, W); the batch dimension is symbolic (`n`).
    """
    nodes, inits = [], []
    cur = "input"
    saved = {}
    n = 0

    def fresh(prefix):
        nonlocal n
        n += 1
        return f"{prefix}_{n}"

    for layer in spec:
        kind = layer[0]
        if kind == "conv":
            _, name, _, _, k, stride, dil, relu = layer
            w = np.asarray(params[name + ".w"], dtype=np.float32)
            b = np.asarray(params[name + ".b"], dtype=np.float32)
            inits += [numpy_helper.from_array(w, name + ".w"), numpy_helper.from_array(b, name + ".b")]
            pad = dil * (k // 2)
            out = fresh("conv")
            nodes.append(
                helper.make_node(
                    "Conv", [cur, name + ".w", name + ".b"], [out],
                    kernel_shape=[k, k], strides=[stride, stride],
                    pads=[pad, pad, pad, pad], dilations=[dil, dil],
                )
            )
            cur = out
            if relu:
                out = fresh("relu")
                nodes.append(helper.make_node("Relu", [cur], [out]))
                cur = out
        elif kind == "up2":
            # Nearest-neighbour doubling, written as copies (each value beside itself, then
            # each row below itself) rather than ONNX Resize: tract runs Resize slowly, and
            # this form made the detector 2.3x faster with the same outputs.
            axes, factor = fresh("axes"), fresh("factor")
            inits.append(numpy_helper.from_array(np.array([3, 5], dtype=np.int64), axes))
            inits.append(numpy_helper.from_array(np.array([1, 1, 2, 2], dtype=np.int64), factor))
            lifted, wide, tall = fresh("lifted"), fresh("wide"), fresh("tall")
            shape, doubled = fresh("shape"), fresh("doubled")
            out = fresh("up")
            nodes += [
                helper.make_node("Unsqueeze", [cur, axes], [lifted]),
                helper.make_node("Concat", [lifted, lifted], [wide], axis=5),
                helper.make_node("Concat", [wide, wide], [tall], axis=3),
                helper.make_node("Shape", [cur], [shape]),
                helper.make_node("Mul", [shape, factor], [doubled]),
                helper.make_node("Reshape", [tall, doubled], [out]),
            ]
            cur = out
        elif kind == "save":
            saved[layer[1]] = cur
        elif kind == "concat":
            out = fresh("cat")
            nodes.append(helper.make_node("Concat", [cur, saved[layer[1]]], [out], axis=1))
            cur = out
        elif kind == "flatten_dense":
            _, name, _, _ = layer
            w = np.asarray(params[name + ".w"], dtype=np.float32)
            b = np.asarray(params[name + ".b"], dtype=np.float32)
            inits += [numpy_helper.from_array(w, name + ".w"), numpy_helper.from_array(b, name + ".b")]
            flat = fresh("flat")
            nodes.append(helper.make_node("Flatten", [cur], [flat], axis=1))
            out = fresh("dense")
            nodes.append(helper.make_node("Gemm", [flat, name + ".w", name + ".b"], [out]))
            cur = out
        elif kind == "l2norm":
            # tract has no LpNormalization: the caller normalises the output (vision/src/nn.rs).
            pass
    nodes.append(helper.make_node("Identity", [cur], ["output"]))
    out_rank = 2 if any(layer[0] == "flatten_dense" for layer in spec) else 4
    c, h, w = input_shape
    graph = helper.make_graph(
        nodes, "tablelens",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["n", c, h, w])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["n"] + [None] * (out_rank - 1))],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="tablelens-models")
    model.doc_string = doc
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


def load_onnx_params(path, params):
    """Copies the weights of an exported ONNX file into `params` (same spec), to go on
    training a committed model instead of starting over."""
    found = {t.name: numpy_helper.to_array(t) for t in onnx.load(path).graph.initializer}
    out = {}
    for name, value in params.items():
        if name not in found or found[name].shape != tuple(value.shape):
            raise ValueError(f"{path}: no weight {name} of shape {tuple(value.shape)}")
        out[name] = jnp.asarray(found[name])
    return out


def param_count(params):
    return int(sum(np.prod(v.shape) for v in params.values()))


def macs(spec, input_shape):
    """Multiply-accumulates of one forward pass, for the model cards."""
    c, h, w = input_shape
    saved = {}
    total = 0
    for layer in spec:
        kind = layer[0]
        if kind == "conv":
            _, _, cin, cout, k, stride, _, _ = layer
            h, w = (h + stride - 1) // stride, (w + stride - 1) // stride
            total += cin * cout * k * k * h * w
            c = cout
        elif kind == "up2":
            h, w = h * 2, w * 2
        elif kind == "save":
            saved[layer[1]] = c
        elif kind == "concat":
            c += saved[layer[1]]
        elif kind == "flatten_dense":
            _, _, cin, cout = layer
            total += cin * cout
            c, h, w = cout, 1, 1
    return total
