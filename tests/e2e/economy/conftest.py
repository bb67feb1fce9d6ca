from tests.e2e.economy import support

starters = support.starters  # the published seed catalogue (fixture)
core_set = support.core_set  # the Core Set offered by the cards service (fixture)
