"""Storage tests never touch the real user directories: tests/conftest.py's
autouse `isolated_home` points XDG_DATA_HOME and XDG_CONFIG_HOME into tmp."""
