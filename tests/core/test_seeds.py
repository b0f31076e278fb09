"""Derived seeds are deterministic, separated by domain, and one-way."""

import pytest

from xeri.seeds import SEED_BITS, bot_seed, derive


def test_same_inputs_same_seed_and_63_bits() -> None:
    a = derive(12345, "server", 1, 0)
    assert a == derive(12345, "server", 1, 0)
    assert 0 <= a < 2**SEED_BITS


def test_domains_seats_and_generations_differ() -> None:
    seeds = {
        bot_seed(7, 0, domain="server"),
        bot_seed(7, 1, domain="server"),
        bot_seed(7, 0, domain="play"),
        bot_seed(7, 0, domain="server", generation=1),
        bot_seed(8, 0, domain="server"),
        bot_seed("7", 0, domain="server"),
    }
    assert len(seeds) == 6


def test_not_an_affine_function_of_the_secret() -> None:
    # The old scheme was secret + 7919*(seat+1): consecutive secrets gave consecutive seeds.
    diffs = {bot_seed(s + 1, 0, domain="server") - bot_seed(s, 0, domain="server") for s in range(50)}
    assert len(diffs) == 50


@pytest.mark.parametrize("domain", ["", "a/b"])
def test_bad_domain_is_refused(domain: str) -> None:
    with pytest.raises(ValueError, match="seed domain"):
        derive(1, domain)


def test_bad_secret_type_is_refused() -> None:
    with pytest.raises(TypeError, match="seed secret"):
        derive(1.5, "x")  # type: ignore[arg-type]
