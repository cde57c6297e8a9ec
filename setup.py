"""Build configuration that pyproject.toml cannot express: the top-level ``resources/`` folder ships inside the
package as ``studio.resources``.

The repository keeps ``resources/`` at its top level (``pack-studio open resources/examples`` from a checkout,
short paths in the README); installed, it lives at ``studio/resources/`` and the code reaches it only through
``importlib.resources`` (``studio.core.resources``). Every folder under it is listed as a (namespace) package so
that setuptools ships all of it, including folders added later, in wheels and in editable installs alike.
"""

from setuptools import find_namespace_packages, setup

NOT_DATA = ["*__pycache__*"]

setup(
    packages=[
        *find_namespace_packages(include=["studio", "studio.*"], exclude=NOT_DATA),
        "studio.resources",
        *(f"studio.resources.{name}" for name in find_namespace_packages(where="resources", exclude=NOT_DATA)),
    ],
    package_dir={"studio.resources": "resources"},
)
