"""Signing keys: files, modes, ids, refusal to overwrite, loading errors."""

from __future__ import annotations

import stat

import pytest

from tablectl.eventlog import KeyFileError, generate_key, key_id, load_private_key, load_public_key, save_keypair


def test_save_keypair_writes_a_private_key_only_its_owner_can_read(tmp_path):
    files = save_keypair(tmp_path / "keys")
    assert stat.S_IMODE(files.private.stat().st_mode) == 0o600
    assert (files.private.name, files.public.name) == ("table.key", "table.pub")


def test_saved_keys_load_back_as_the_same_pair(tmp_path):
    key = generate_key()
    files = save_keypair(tmp_path, key)
    assert key_id(load_private_key(files.private)) == key_id(load_public_key(files.public)) == key_id(key) == files.key_id


def test_key_id_is_16_hex_and_differs_between_keys():
    a, b = key_id(generate_key()), key_id(generate_key())
    assert len(a) == 16 and int(a, 16) >= 0 and a != b


def test_save_keypair_refuses_to_overwrite_and_leaves_the_old_key(tmp_path):
    first = save_keypair(tmp_path)
    before = first.private.read_bytes()
    with pytest.raises(FileExistsError):
        save_keypair(tmp_path)
    assert first.private.read_bytes() == before


def test_loading_a_missing_key_names_the_file(tmp_path):
    with pytest.raises(KeyFileError, match="no such public key file"):
        load_public_key(tmp_path / "table.pub")


def test_a_private_key_given_as_public_key_is_refused(tmp_path):
    files = save_keypair(tmp_path)
    with pytest.raises(KeyFileError, match="is a private key"):
        load_public_key(files.private)


def test_a_file_that_is_not_a_key_is_refused(tmp_path):
    junk = tmp_path / "table.pub"
    junk.write_text("hello\n")
    with pytest.raises(KeyFileError, match="not a PEM public key"):
        load_public_key(junk)
    with pytest.raises(KeyFileError, match="not an unencrypted PEM private key"):
        load_private_key(junk)
