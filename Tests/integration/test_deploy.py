"""deploy/ is checked, since no container engine runs here (issue 14):

- every runtime package the Dockerfile names exists in Debian (apt-cache), and together they
  provide every library `ldd` lists for the built binary (dpkg -S);
- every YAML file parses, and the Kubernetes objects are the ones promised, probed on /healthz;
- every flag, environment variable, port and data path the files use agrees with
  `layercast serve --help` and with each other, and the command line of each file starts the
  real server (compose's nodes on a redis-server of the test's own, for their `--cluster`);
- the cluster's nginx configurations: deploy/nginx-cluster.conf, filled in as scripts/cluster.sh
  fills it, passes `nginx -t`, and deploy/nginx-compose.conf sends to every node of compose.yaml;
- the systemd units pass `systemd-analyze verify` and keep the ledger under StateDirectory=.

The binary checked is LAYERCAST_RELEASE_BIN when set (what the Dockerfile builds), else the
tests' binary: both link the same libraries, except that the Dockerfile links the Swift runtime
statically (`--static-swift-stdlib`), so libraries of the Swift toolchain are allowed only then.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import yaml

from conftest import BINARY, REPO, ServerProcess, _require_binary, http_get, wait_until

DEPLOY = REPO / "deploy"
DOCKERFILE = DEPLOY / "Dockerfile"
K8S = DEPLOY / "k8s"
UNITS = [DEPLOY / "layercast.service", DEPLOY / "layercast@.service"]
EXAMPLE = REPO / "examples" / "scene-package"   # a scene author's package, with its own unit
FLAG = re.compile(r"--[a-z][a-z0-9-]*")


def serve_help() -> str:
    _require_binary()
    return subprocess.run([str(BINARY), "serve", "--help"], capture_output=True, text=True, check=True,
                          timeout=30).stdout


def help_flags() -> set[str]:
    return set(FLAG.findall(serve_help())) | {"--help"}


def dockerfile_stages(dockerfile: Path = DOCKERFILE) -> list[list[str]]:
    """The Dockerfile's instructions (continuation lines joined), split into stages."""
    text = re.sub(r"\\\n", " ", dockerfile.read_text())
    stages: list[list[str]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.upper().startswith("FROM "):
            stages.append([])
        stages[-1].append(line)
    return stages


def runtime_packages(dockerfile: Path = DOCKERFILE) -> list[str]:
    """The packages `apt-get install` names in the Dockerfile's last (runtime) stage."""
    packages: list[str] = []
    for line in dockerfile_stages(dockerfile)[-1]:
        for command in re.split(r"&&|;", line):
            words = shlex.split(command)
            if "apt-get" in words and "install" in words:
                packages += [w for w in words[words.index("install") + 1:] if not w.startswith("-")]
    return packages


def docker_instruction(name: str, dockerfile: Path = DOCKERFILE) -> list[str]:
    """The exec-form arguments of the runtime stage's `name` instruction (CMD, ENTRYPOINT)."""
    lines = [line for line in dockerfile_stages(dockerfile)[-1] if line.upper().startswith(name + " ")]
    assert len(lines) == 1, f"the runtime stage needs exactly one {name}"
    return yaml.safe_load(lines[0][len(name):].strip())


def option(args: list[str], flag: str) -> str | None:
    """The value `args` gives `flag` (as `--flag value` or `--flag=value`)."""
    for i, arg in enumerate(args):
        if arg == flag and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(flag + "="):
            return arg.split("=", 1)[1]
    return None


def k8s_objects() -> dict[str, dict]:
    objects = {}
    for path in sorted(K8S.glob("*.yaml")):
        for document in yaml.safe_load_all(path.read_text()):
            if document and document.get("kind") != "Kustomization":
                objects[document["kind"]] = document
    return objects


def k8s_container() -> dict:
    return k8s_objects()["Deployment"]["spec"]["template"]["spec"]["containers"][0]


def k8s_args() -> list[str]:
    """The Deployment's args with each `$(VAR)` replaced by the ConfigMap value it names."""
    container = k8s_container()
    config = k8s_objects()["ConfigMap"]["data"]
    values = {}
    for env in container["env"]:
        ref = env.get("valueFrom", {}).get("configMapKeyRef")
        if ref:
            values[env["name"]] = config[ref["key"]]
    return [re.sub(r"\$\((\w+)\)", lambda m: values[m.group(1)], arg) for arg in container["args"]]


def compose_services() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]


def compose_nodes() -> dict[str, dict]:
    """The Layercast nodes of compose.yaml (the services that run its image), by service name."""
    nodes = {name: service for name, service in compose_services().items()
             if service.get("image") == "layercast:latest"}
    assert len(nodes) == 3, f"compose.yaml should run three Layercast nodes, not {sorted(nodes)}"
    return nodes


def compose_service() -> dict:
    """The first node of compose.yaml."""
    return next(iter(compose_nodes().values()))


def unit_exec_start(unit: Path) -> list[str]:
    line = next(l for l in unit.read_text().splitlines() if l.startswith("ExecStart="))
    return shlex.split(line.removeprefix("ExecStart="))


def unit_setting(unit: Path, key: str) -> str:
    return next(l.split("=", 1)[1] for l in unit.read_text().splitlines() if l.startswith(key + "="))


# ---------------------------------------------------------------------------------------------


def test_runtime_packages_exist_in_debian():
    packages = runtime_packages()
    assert packages, "the Dockerfile's runtime stage installs no packages"
    for package in packages:
        shown = subprocess.run(["apt-cache", "show", "--no-all-versions", package], capture_output=True, text=True)
        assert shown.returncode == 0 and f"Package: {package}" in shown.stdout, \
            f"Debian has no package {package} (apt-cache show: {shown.stderr.strip()}; run apt-get update?)"


def test_runtime_packages_provide_every_linked_library():
    binary = Path(os.environ.get("LAYERCAST_RELEASE_BIN") or BINARY)
    if not binary.is_absolute():
        binary = REPO / binary
    _require_binary()
    static_swift = any("--static-swift-stdlib" in line for line in dockerfile_stages()[0])
    toolchain = Path(shutil.which("swift") or "/opt/swift/usr/bin/swift").resolve().parents[1]
    packages = set(runtime_packages())
    ldd = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True).stdout
    libraries = re.findall(r"(?:=>\s*)?(/\S+)\s+\(0x", ldd)
    assert libraries, ldd
    unprovided = []
    for library in libraries:
        if Path(library).resolve().is_relative_to(toolchain):
            assert static_swift, f"{library} is the Swift runtime: build with --static-swift-stdlib"
            continue
        owners = set()
        for candidate in {library, str(Path(library).resolve())}:
            found = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
            owners |= {owner.split(":")[0].strip() for line in found.stdout.splitlines()
                       for owner in line.split(": ", 1)[0].split(", ")}
        assert owners, f"no Debian package provides {library}"
        if not owners & packages:
            unprovided.append(f"{library} (from {', '.join(sorted(owners))})")
    assert not unprovided, f"the runtime stage lacks the packages of: {unprovided}"


def test_yaml_parses_and_kubernetes_objects_are_complete():
    yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    objects = k8s_objects()
    assert {"Deployment", "Service", "ConfigMap", "PodDisruptionBudget"} <= set(objects), sorted(objects)
    container = k8s_container()
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["path"] == "/healthz", probe
        assert container[probe]["httpGet"]["port"] in {p["name"] for p in container["ports"]}, probe
    selector = objects["Deployment"]["spec"]["selector"]["matchLabels"]
    assert objects["Service"]["spec"]["selector"] == selector
    assert objects["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"] == selector
    assert objects["Service"]["spec"]["ports"][0]["targetPort"] in {p["name"] for p in container["ports"]}
    kustomized = yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"]
    assert sorted(kustomized) == sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


def test_flags_and_environment_exist_in_serve_help():
    flags = help_flags()
    help_text = serve_help()
    command_lines = {
        "Dockerfile CMD": docker_instruction("CMD"),
        **{f"compose.yaml {name} command": node["command"] for name, node in compose_nodes().items()},
        "k8s Deployment args": k8s_container()["args"],
        **{unit.name: unit_exec_start(unit)[2:] for unit in UNITS},
    }
    assert docker_instruction("ENTRYPOINT")[-1] == "serve"
    for where, args in command_lines.items():
        for flag in {FLAG.match(a).group(0) for a in args if FLAG.match(a)}:
            assert flag in flags, f"{where} passes {flag}, which `layercast serve --help` does not list"
    for key in k8s_objects()["ConfigMap"]["data"]:
        assert f"--{key}" in flags, f"ConfigMap key {key} names no `layercast serve` flag"
    container = k8s_container()
    defined = {env["name"] for env in container["env"]}
    used = {m for arg in container["args"] for m in re.findall(r"\$\((\w+)\)", arg)}
    assert used <= defined, f"args use undefined variables {used - defined}"
    assert {n for n in defined if n.startswith("LAYERCAST_ARG_")} <= used, "an argument variable is unused"
    layercast_env = {n for n in defined if not n.startswith("LAYERCAST_ARG_")}
    for node in compose_nodes().values():
        layercast_env |= set(node["environment"])
    for unit in UNITS:
        layercast_env |= set(re.findall(r"\b(LAYERCAST_[A-Z_]+)=", unit.read_text()))
    for name in layercast_env:
        assert re.search(rf"\b{name}\b", help_text), f"{name} is not an environment variable `layercast serve` reads"


def test_ports_and_data_paths_agree():
    cmd = docker_instruction("CMD")
    port = option(cmd, "--port")
    exposed = next(line.split()[1] for line in dockerfile_stages()[-1] if line.startswith("EXPOSE "))
    assert port == exposed
    volume = next(line.split()[1] for line in dockerfile_stages()[-1] if line.startswith("VOLUME "))
    assert option(cmd, "--data") == volume
    assert option(cmd, "--host") == "0.0.0.0", "inside a container the server must listen beyond loopback"

    # compose.yaml: each node on the image's port with a data volume of its own, one cluster, and
    # distinct node ids; only nginx publishes a port.
    nodes = compose_nodes()
    volumes = []
    for name, service in nodes.items():
        assert option(service["command"], "--port") == port, name
        assert "ports" not in service, f"{name} publishes a port: only nginx should"
        assert any(str(v).split(":")[1] == option(service["command"], "--data") for v in service["volumes"]), name
        volumes += [str(v).split(":")[0] for v in service["volumes"]]
        cluster = option(service["command"], "--cluster")
        assert cluster and re.fullmatch(r"redis://redis:\d+(/\d+)?", cluster), f"{name}: --cluster {cluster}"
        assert "redis" in service["depends_on"] and "postgres" in service["depends_on"], name
        assert service["environment"]["LAYERCAST_LEDGER"].startswith("postgres://"), name
    assert len(set(volumes)) == len(volumes), f"two nodes share a data volume: {volumes}"
    ids = [option(s["command"], "--node-id") for s in nodes.values()]
    assert len(set(ids)) == len(ids), f"node ids repeat: {ids}"
    assert len({option(s["command"], "--cluster") for s in nodes.values()}) == 1

    container = k8s_container()
    args = k8s_args()
    assert str(container["ports"][0]["containerPort"]) == option(args, "--port")
    assert option(args, "--data") in {m["mountPath"] for m in container["volumeMounts"]}
    assert container["securityContext"]["readOnlyRootFilesystem"] is True

    for unit in UNITS:
        state = unit_setting(unit, "StateDirectory")
        data = option(unit_exec_start(unit), "--data")
        assert data == f"/var/lib/{state}", f"{unit.name}: --data {data} is not its StateDirectory /var/lib/{state}"
        assert unit_setting(unit, "ProtectSystem") == "strict"


@pytest.mark.parametrize("where", ["Dockerfile", "compose", "k8s", "layercast.service", "layercast@.service"])
def test_each_command_line_starts_the_server(where, tmp_path, request):
    """The file's own flags, with the host, port, public folder and data folder moved here, and
    the cluster's Redis (compose's `--cluster redis://redis:6379`) a redis-server of the test's own."""
    args = {"Dockerfile": lambda: docker_instruction("CMD"), "compose": lambda: compose_service()["command"],
            "k8s": k8s_args, "layercast.service": lambda: unit_exec_start(UNITS[0])[2:],
            "layercast@.service": lambda: [a.replace("%i", "8081") for a in unit_exec_start(UNITS[1])[2:]]}[where]()
    moved = {"--host", "--port", "--public", "--data"}
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in moved:
            skip = "=" not in arg
            continue
        kept.append(arg)
    _require_binary()
    if "--cluster" in kept:
        from cluster import require_cluster_mode
        require_cluster_mode()
        redis = request.getfixturevalue("redis_server")
        kept[kept.index("--cluster") + 1] = redis.url
    srv = ServerProcess([*kept, "--data", str(tmp_path / "data")], public=REPO / "public")
    try:
        # A cluster node says "degraded" until its Redis link is up (a thread of its own): wait for it.
        wait_until(lambda: http_get(srv.base_url, "/healthz").json()["status"] == "ok", 10, "the node to be healthy")
        health = http_get(srv.base_url, "/healthz").json()
        if "--cluster" in kept:
            assert health == {"status": "ok", "node": option(kept, "--node-id"), "cluster": option(kept, "--cluster")}
        else:
            assert health["status"] == "ok" and health["node"], health
        # A SIGTERM in the first moments after start can be lost (reported): let it settle.
        time.sleep(1)
    finally:
        assert srv.stop() == 0, srv.log_tail()


def test_systemd_units_verify():
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: apt-get install systemd (scripts/install-deps.sh does)"
    _require_binary()
    with tempfile.TemporaryDirectory() as folder:
        units = []
        for unit in [*UNITS, EXAMPLE / "card-flip.service"]:
            # ExecStart must name an executable that exists: the built binary stands in.
            text = re.sub(r"/usr/local/bin/(layercast|card-flip-server)\b", str(BINARY.resolve()), unit.read_text())
            name = unit.name.replace("@.", "@8081.")
            (Path(folder) / name).write_text(text)
            units.append(str(Path(folder) / name))
        run = subprocess.run([analyze, "verify", *units], capture_output=True, text=True, timeout=60)
    output = (run.stdout + run.stderr).strip()
    assert run.returncode == 0 and not output, f"systemd-analyze verify:\n{output}"


def test_nginx_configurations_front_every_node():
    from cluster import NGINX, free_port
    assert shutil.which("nginx") or Path(NGINX).exists(), "nginx is missing: apt-get install nginx (scripts/install-deps.sh does)"
    # deploy/nginx-cluster.conf as scripts/cluster.sh fills it in.
    template = (DEPLOY / "nginx-cluster.conf").read_text()
    placeholders = set(re.findall(r"@[A-Z0-9_]+@", "".join(l.split("#")[0] + "\n" for l in template.splitlines())))
    assert placeholders == {"@LISTEN_PORT@", "@NODE1_PORT@", "@NODE2_PORT@", "@NODE3_PORT@"}, placeholders
    script = (REPO / "scripts" / "cluster.sh").read_text()
    assert all(p in script for p in placeholders), "scripts/cluster.sh does not fill every placeholder"
    with tempfile.TemporaryDirectory() as prefix:
        text = template
        for placeholder in sorted(placeholders):
            text = text.replace(placeholder, str(free_port()))
        (Path(prefix) / "nginx.conf").write_text(text)
        check = subprocess.run([NGINX, "-t", "-p", prefix, "-c", f"{prefix}/nginx.conf", "-e", f"{prefix}/error.log"],
                               capture_output=True, text=True, timeout=30)
        assert check.returncode == 0, check.stderr
    # deploy/nginx-compose.conf: one upstream server per node of compose.yaml, at its --port;
    # nginx publishes its listen port.
    conf = (DEPLOY / "nginx-compose.conf").read_text()
    upstreams = set(re.findall(r"^\s*server\s+([\w.-]+:\d+)", conf, re.M))
    assert upstreams == {f"{name}:{option(node['command'], '--port')}" for name, node in compose_nodes().items()}
    nginx = compose_services()["nginx"]
    assert any(str(v).split(":")[:2] == ["./nginx-compose.conf", "/etc/nginx/conf.d/default.conf"] for v in nginx["volumes"])
    listen = re.search(r"^\s*listen\s+(\d+)[\s;]", conf, re.M).group(1)
    assert any(str(mapping).split(":")[-1] == listen for mapping in nginx["ports"])
    for name in ("location /ws", "proxy_set_header Upgrade $http_upgrade", "proxy_buffering off"):
        assert name in conf and name in template, name


def assert_bundles_beside(dockerfile: Path, binary: str) -> None:
    """The build stage collects every resource bundle SwiftPM wrote (`*.resources`, the scenes'
    images) and the runtime stage puts them in the binary's directory, where Bundle.module looks."""
    build = " ".join(dockerfile_stages(dockerfile)[0])
    assert re.search(r"cp -R \S*\.build/release/\*\.resources /out/bundles/", build), build
    assert f"COPY --from=build /out/bundles/ {os.path.dirname(binary)}/" in dockerfile_stages(dockerfile)[-1]


def test_dockerfile_puts_the_resource_bundles_beside_the_binary():
    assert_bundles_beside(DOCKERFILE, docker_instruction("ENTRYPOINT")[0])


def test_example_package_deploys_like_ours():
    """The example scene package's Dockerfile and systemd unit (docs/writing-a-scene.md) are ours
    with its own binary: the same runtime libraries, the binary the build stage installs as the
    entry point, `serve` flags that exist, and the unit's --data in its own StateDirectory."""
    dockerfile = EXAMPLE / "Dockerfile"
    assert runtime_packages(dockerfile) == runtime_packages()
    installed = re.search(r"install -D -m 0755 \S+ (/out/\S+)", " ".join(dockerfile_stages(dockerfile)[0])).group(1)
    copied = next(line.split() for line in dockerfile_stages(dockerfile)[-1] if line.startswith(f"COPY --from=build {installed}"))
    assert docker_instruction("ENTRYPOINT", dockerfile) == [copied[-1], "serve"]
    assert_bundles_beside(dockerfile, copied[-1])
    assert docker_instruction("CMD", dockerfile) == docker_instruction("CMD")
    unit = EXAMPLE / "card-flip.service"
    start = unit_exec_start(unit)
    assert start[:2] == [copied[-1], "serve"]
    flags = help_flags()
    assert {FLAG.match(a).group(0) for a in start[2:] if FLAG.match(a)} <= flags
    assert option(start, "--data") == f"/var/lib/{unit_setting(unit, 'StateDirectory')}"
    assert unit_setting(unit, "ProtectSystem") == "strict"
