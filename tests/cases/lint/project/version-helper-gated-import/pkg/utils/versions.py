from importlib.metadata import PackageNotFoundError, version

from packaging.version import Version


def is_package_version_at_least(package_name, min_version):
    try:
        return Version(version(package_name)) >= Version(min_version)
    except PackageNotFoundError:
        return False
