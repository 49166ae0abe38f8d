#!/usr/bin/env python3
"""Builds the API reference: DocC archives of `Layercast` (everything `import Layercast` reaches,
re-exports included), `LayercastEngine` and `LayercastSceneTesting`, each from its catalog
(`Sources/*/<Module>.docc`) with the guides as articles, into .build/reference/ (README, "API
reference"). Fails on any DocC warning, so a broken symbol link or article fails CI.

Usage: reference.py [--output DIR]    (after `swift build`; uses the toolchain's docc)
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = ROOT / ".build" / "debug" / "Modules"
# module: (catalog, re-exported modules whose symbols it documents, articles: file name <- guide)
ARCHIVES = {
    "Layercast": ("Sources/LayercastService/Layercast.docc",
                  ["LayercastEngine", "LayercastSceneAPI", "LayercastJSON", "LayercastUIKit"],
                  {"WritingAScene": "docs/writing-a-scene.md", "TestingAScene": "docs/testing-a-scene.md"}),
    "LayercastEngine": ("Sources/LayercastEngine/LayercastEngine.docc", [],
                        {"EngineModel": "docs/engine-model.md"}),
    "LayercastSceneTesting": ("Sources/LayercastSceneTesting/LayercastSceneTesting.docc", [],
                              {"TestingAScene": "docs/testing-a-scene.md"}),
}
GUIDE_ARTICLES = {"writing-a-scene.md": "WritingAScene", "testing-a-scene.md": "TestingAScene",
                  "engine-model.md": "EngineModel"}
LINK = re.compile(r"\[([^\]]+)\]\(((?:\.\./)?[\w./-]*?)([\w-]+\.md)(#[\w-]*)?\)")


def include_flags():
    """-I for every C module the modules import: ours (Sources/C*), the packages' and pkg-config's."""
    flags = []
    for modulemap in [*ROOT.glob("Sources/C*/module.modulemap"), *(ROOT / ".build" / "checkouts").glob("**/module.modulemap")]:
        flags += ["-I", str(modulemap.parent)]
    packages = re.findall(r'pkgConfig:\s*"([^"]+)"', (ROOT / "Package.swift").read_text())
    for package in packages:
        found = subprocess.run(["pkg-config", "--cflags-only-I", package], capture_output=True, text=True)
        for flag in found.stdout.split():
            flags += ["-Xcc", flag]
    return flags


def symbol_graph(module, reexported, folder):
    command = ["swift-symbolgraph-extract", "-module-name", module, "-I", str(BUILD), *include_flags(),
               "-target", "x86_64-unknown-linux-gnu", "-output-dir", str(folder), "-minimum-access-level", "public",
               "-skip-synthesized-members"]
    if reexported:
        command.append("-experimental-allowed-reexported-modules=" + ",".join(reexported))
    subprocess.run(command, check=True)


def article(guide, available):
    """A guide as a DocC article: links to guides that are articles of the same archive
    (`available`) become <doc:> links, others name the file in the repository."""
    text = (ROOT / guide).read_text()

    def link(match):
        title, _, file, anchor = match.groups()
        if GUIDE_ARTICLES.get(file) in available:
            return f"<doc:{GUIDE_ARTICLES[file]}>" if not anchor else f"{title} (<doc:{GUIDE_ARTICLES[file]}>)"
        return f"{title} (`docs/{file}` in the repository)" if file != "README.md" else f"{title} (the repository's README)"

    return LINK.sub(link, text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=pathlib.Path, default=ROOT / ".build" / "reference")
    arguments = parser.parse_args()
    arguments.output.mkdir(parents=True, exist_ok=True)
    for module, (catalog, reexported, articles) in ARCHIVES.items():
        with tempfile.TemporaryDirectory() as scratch:
            graphs, staged = pathlib.Path(scratch, "graphs"), pathlib.Path(scratch, f"{module}.docc")
            graphs.mkdir()
            symbol_graph(module, reexported, graphs)
            shutil.copytree(ROOT / catalog, staged)
            for name, guide in articles.items():
                (staged / f"{name}.md").write_text(article(guide, set(articles)))
            archive = arguments.output / f"{module}.doccarchive"
            shutil.rmtree(archive, ignore_errors=True)
            result = subprocess.run(["docc", "convert", str(staged), "--additional-symbol-graph-dir", str(graphs),
                                     "--output-path", str(archive), "--fallback-display-name", module,
                                     "--fallback-bundle-identifier", f"org.layercast.{module}",
                                     "--transform-for-static-hosting", "--warnings-as-errors"])
            if result.returncode != 0:
                sys.exit(f"reference: DocC refused {module}'s catalog (its diagnostics are above)")
            print(f"reference: {archive.relative_to(ROOT) if archive.is_relative_to(ROOT) else archive}")


if __name__ == "__main__":
    main()
