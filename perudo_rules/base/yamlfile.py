"""Safe YAML reading with line numbers, for variant files and scenarios.

Only plain data is accepted: PyYAML's safe loader (no tags that build objects),
no anchors or aliases (they buy nothing in a rules file and are the way to an
alias bomb), no duplicate keys, and bounded size and nesting (the limits of
:mod:`perudo_rules.base.limits`; only regular files are read). Every problem is
raised as the error class the caller passes, naming the file, key path and line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml

from perudo_rules.base.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, read_bounded

__all__ = ["YamlDoc", "load_yaml_file", "parse_yaml", "parse_yaml_bytes", "read_yaml_bytes"]

#: Builds the caller's error: ``err(message, file=, key_path=, line=)``.
ErrorFactory = Callable[..., Exception]

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlDoc:
    """A parsed YAML document: the data, and the node tree to find lines by key path."""

    __slots__ = ("data", "file", "root")

    def __init__(self, data: Any, root: yaml.Node | None, file: str | None) -> None:
        self.data = data
        self.root = root
        self.file = file

    def line(self, path: Sequence[str | int]) -> int | None:
        """The 1-based line of the deepest node along ``path`` (keys or list indexes)."""
        node = self.root
        if node is None:
            return None
        best = node.start_mark.line + 1
        for part in path:
            nxt: yaml.Node | None = None
            if isinstance(node, yaml.MappingNode):
                for key, value in node.value:
                    if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                        nxt = value
                        best = key.start_mark.line + 1
                        break
            elif (
                isinstance(node, yaml.SequenceNode)
                and isinstance(part, int)
                and 0 <= part < len(node.value)
            ):
                nxt = node.value[part]
            if nxt is None:
                break
            node = nxt
            best = node.start_mark.line + 1
        return best


def _check_nodes(root: yaml.Node, file: str | None, err: ErrorFactory) -> None:
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, int, str]] = [(root, 0, "")]
    count = 0
    while stack:
        node, depth, path = stack.pop()
        if id(node) in seen:
            raise _error(err, "anchors and aliases are not allowed", file, path, node)
        seen.add(id(node))
        count += 1
        if count > MAX_NODES:
            raise _error(err, f"document too large (over {MAX_NODES} nodes)", file, path, node)
        if depth > MAX_DEPTH:
            raise _error(err, f"nesting deeper than {MAX_DEPTH} levels", file, path, node)
        if isinstance(node, yaml.MappingNode):
            count += len(node.value)  # the keys are nodes too
            if count > MAX_NODES:
                raise _error(err, f"document too large (over {MAX_NODES} nodes)", file, path, node)
            keys: set[str] = set()
            for key, value in node.value:
                name = str(key.value) if isinstance(key, yaml.ScalarNode) else "?"
                sub = f"{path}.{name}" if path else name
                if not isinstance(key, yaml.ScalarNode):
                    raise _error(err, "mapping keys must be plain scalars", file, path, key)
                if name in keys:
                    raise _error(err, f"duplicate key {name!r}", file, sub, key)
                if name == "<<":
                    raise _error(err, "merge keys ('<<') are not allowed", file, sub, key)
                keys.add(name)
                stack.append((value, depth + 1, sub))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                stack.append((item, depth + 1, f"{path}[{i}]"))


def _error(
    err: ErrorFactory, message: str, file: str | None, path: str, node: yaml.Node
) -> Exception:
    return err(message, file=file, key_path=path, line=node.start_mark.line + 1)


def parse_yaml(text: str, file: str | None, err: ErrorFactory) -> YamlDoc:
    """Parse ``text`` safely; raise ``err(message, file=, key_path=, line=)`` on any problem."""
    if len(text) > MAX_FILE_BYTES:
        raise err(f"file too large ({len(text)} bytes, limit {MAX_FILE_BYTES})", file=file)
    loader = _Loader(text)
    try:
        # parse once: compose, check the node tree, then build the data from the same nodes
        root = loader.get_single_node()
        data = None
        if root is not None:
            _check_nodes(root, file, err)
            try:
                data = loader.construct_document(root)
            except ValueError as exc:  # a value it refuses, such as an integer of 5000 digits
                raise err(f"invalid YAML: {' '.join(str(exc).split())[:120]}", file=file) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = " ".join(str(exc.problem or exc.context or "malformed YAML").split())
        raise err(f"invalid YAML: {problem}", file=file, line=line) from None
    except yaml.YAMLError as exc:
        raise err(f"invalid YAML: {' '.join(str(exc).split())}", file=file) from None
    except RecursionError:
        raise err("invalid YAML: nesting too deep", file=file) from None
    finally:
        loader.dispose()
    return YamlDoc(data, root, file)


def load_yaml_file(path: Path, err: ErrorFactory, missing: str | None = None) -> YamlDoc:
    """Read and parse a YAML file with the limits of :func:`parse_yaml` (``missing`` is
    the message for a file that does not exist)."""
    return parse_yaml_bytes(read_yaml_bytes(path, err, missing), str(path), err)


def read_yaml_bytes(path: Path, err: ErrorFactory, missing: str | None = None) -> bytes:
    """The bytes of the YAML file ``path``, read as :func:`load_yaml_file` reads them (a
    regular file within the size limit); parse them with :func:`parse_yaml_bytes`."""
    return read_bounded(path, MAX_FILE_BYTES, err, missing)


def parse_yaml_bytes(raw: bytes, file: str | None, err: ErrorFactory) -> YamlDoc:
    """Parse the bytes of a YAML file (UTF-8) as :func:`parse_yaml` parses text."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise err("file is not valid UTF-8", file=file) from None
    return parse_yaml(text, file, err)
