"""Where the web view listens and who may play: ``--web``, ``--players`` and ``[web]`` read
and checked like every other input (one line naming what and where, exit status 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from cli_kit import config, run
from controller.config import ConfigError, load_config
from controller.listen import Listen, parse_listen


@pytest.mark.parametrize("text,listen,loopback", [
    ("8080", Listen("127.0.0.1", 8080), True),
    ("0", Listen("127.0.0.1", 0), True),
    ("0.0.0.0:8080", Listen("0.0.0.0", 8080), False),
    ("[::1]:80", Listen("::1", 80), True),
    ("[::]:80", Listen("::", 80), False),
    ("localhost:9000", Listen("localhost", 9000), True),
    ("pi.local:8080", Listen("pi.local", 8080), False),
])
def test_listen_addresses(text: str, listen: Listen, loopback: bool) -> None:
    assert parse_listen(text) == listen
    assert listen.loopback is loopback


@pytest.mark.parametrize("text", ["", " ", "http", "70000", "-1", "8080x", ":80", "::1:80", "[x]:80", "a b:80",
                                  "host:", "1.2.3.4:99999", "[::1]", "h\x00st:80"])
def test_bad_listen_addresses_say_what_is_expected(text: str) -> None:
    with pytest.raises(ValueError, match="PORT|port"):
        parse_listen(text)


@given(st.text(max_size=30))
def test_any_text_is_an_address_or_one_clear_error(text: str) -> None:
    try:
        listen = parse_listen(text)
    except ValueError as error:
        assert "\n" not in str(error)
    else:
        assert 0 <= listen.port <= 65535 and listen.host


@pytest.mark.parametrize("argv,words", [
    (("run", "--web", "nonsense"), "argument --web"),
    (("run", "--web", "99999"), "port"),
    (("run", "--players", "web"), "--web"),
    (("run", "--players", "web,chess"), "argument --players"),
    (("run", "--players", "web,greedy,random"), "argument --players"),
    (("run", "--web", "0", "--players", "web", "--typed"), "--typed"),
])
def test_bad_web_arguments_are_one_line_and_status_2(argv: tuple[str, ...], words: str) -> None:
    code, _, err = run(*argv)
    assert code == 2, err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_web_section_is_read(tmp_path: Path) -> None:
    loaded = load_config(config(tmp_path, '[web]\nlisten = "0.0.0.0:8081"\ntoken = "abcdefghijklmnop-_12"\n'))
    assert loaded.web == Listen("0.0.0.0", 8081) and loaded.web_token == "abcdefghijklmnop-_12"
    assert load_config(config(tmp_path, "[web]\nlisten = 8082\n")).web == Listen("127.0.0.1", 8082)
    assert load_config(config(tmp_path, "[game]\n")).web is None


@pytest.mark.parametrize("text,key", [
    ('[web]\nlisten = "x:y"\n', "web.listen"),
    ("[web]\nlisten = true\n", "web.listen"),
    ("[web]\nlisten = [8080]\n", "web.listen"),
    ('[web]\ntoken = "short"\n', "web.token"),
    ('[web]\ntoken = "has spaces in it, sixteen+"\n', "web.token"),
    ("[web]\ntoken = 12345678901234567\n", "web.token"),
    ('[web]\nport = 8080\n', "web.port"),
])
def test_bad_web_sections_name_the_file_and_key(tmp_path: Path, text: str, key: str) -> None:
    path = config(tmp_path, text)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value).startswith(f"{path}: {key}:")
