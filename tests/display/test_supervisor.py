"""Supervisor credentials: scrypt hashes in the config, constant-time checks, the hash command."""

from __future__ import annotations

import base64

import pytest
from click.testing import CliRunner

from tablectl.cli import main
from tablectl.supervisor import (
    CredentialFormatError,
    check_supervisor,
    hash_credential,
    parse_stored,
    verify_credential,
)

# small work factor: these tests are about the format and the checks, not scrypt's cost
FAST = {"n": 2**4, "r": 1, "p": 1}


def test_stored_form_is_scrypt_n_r_p_salt_hash() -> None:
    stored = hash_credential("s3cret")
    scheme, n, r, p, salt, key = stored.split("$")
    assert (scheme, n, r, p) == ("scrypt", "16384", "8", "1")
    assert len(base64.b64decode(salt)) == 16
    assert len(base64.b64decode(key)) == 32


def test_the_right_secret_verifies() -> None:
    assert verify_credential("s3cret", hash_credential("s3cret", **FAST))


def test_a_wrong_secret_does_not_verify() -> None:
    assert not verify_credential("s3cret!", hash_credential("s3cret", **FAST))


def test_each_hash_has_its_own_salt() -> None:
    assert hash_credential("same", **FAST) != hash_credential("same", **FAST)


def test_parameters_are_read_from_the_stored_string() -> None:
    stored = hash_credential("pw", n=2**5, r=2, p=1)
    assert parse_stored(stored)[:3] == (32, 2, 1)
    assert verify_credential("pw", stored)


@pytest.mark.parametrize(
    "stored",
    [
        "",
        "pbkdf2$1$2$3$AAAA$AAAA",
        "scrypt$16384$8$1$not base64!$AAAAAAAAAAAAAAAAAAAAAA==",
        "scrypt$1000$8$1$AAAAAAAAAAA=$AAAAAAAAAAAAAAAAAAAAAA==",  # N not a power of two
        "scrypt$1073741824$8$1$AAAAAAAAAAA=$AAAAAAAAAAAAAAAAAAAAAA==",  # absurd work factor
        "scrypt$16384$8$1$AAAAAAAAAAA=",
    ],
)
def test_a_malformed_stored_hash_is_refused_and_never_matches(stored: str) -> None:
    with pytest.raises(CredentialFormatError):
        parse_stored(stored)
    assert not verify_credential("anything", stored)


def test_an_empty_secret_cannot_be_stored() -> None:
    with pytest.raises(ValueError):
        hash_credential("")


def test_an_unknown_supervisor_is_refused() -> None:
    supervisors = {"anna": hash_credential("pw", **FAST)}
    assert not check_supervisor(supervisors, "bob", "pw")
    assert check_supervisor(supervisors, "anna", "pw")


def test_hash_credential_command_reads_stdin_when_not_a_terminal() -> None:
    result = CliRunner().invoke(main, ["config", "hash-credential"], input="Bluff-Harbor-42\n")
    assert result.exit_code == 0, result.output
    assert verify_credential("Bluff-Harbor-42", result.stdout.strip())


def test_hash_credential_command_refuses_an_empty_secret() -> None:
    result = CliRunner().invoke(main, ["config", "hash-credential"], input="\n")
    assert result.exit_code == 2
    assert "credential refused: too short" in result.stderr
