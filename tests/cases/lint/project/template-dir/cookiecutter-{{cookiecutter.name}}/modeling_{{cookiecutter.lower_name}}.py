from {{cookiecutter.package}} import {{cookiecutter.name}}Model


def test_loads():
    assert {{cookiecutter.name}}Model is not None
