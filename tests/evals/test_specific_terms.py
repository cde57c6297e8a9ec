"""Discovery weighs prompt terms by how specific they are (issue #36 items 1 and 2): everyday words shared with
any prompt never activate a pack on their own, a pack's own words do, and a prompt in a language the catalog
entry lacks gets a reason a curator can act on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from studio.core.evals.discovery import DEFAULT_THRESHOLD, Simulator, Specificity, catalog_score, catalog_terms
from studio.core.evals.model import DiscoveryCase
from studio.core.pack import load_pack

CONTENT_OPS = """---
name: acme-content-ops
description: Acme content operations playbook covering positioning, pillars, topic bank, calendar, and review metrics.
type: content-operations
status: ready
---
# Content operations pack

- generate next week's content calendar
"""
PRIVATE_DOMAIN = """---
name: acme-private-domain-ops
description: >-
  Acme private-domain and community operations playbook covering segmentation, touch cadence, SOP, and
  conversion scripts.
type: private-domain-operations
status: ready
---
# Private-domain operations pack
"""
PERSONA = """---
name: lilei-personal-ip
description: Personal IP knowledge for Lilei, including background, methods, voice, stories, and boundaries.
type: personal-profile
status: ready
---
# Personal IP pack

李雷的短视频脚本和沙龙开场白。
"""


def _decide(root: Path, prompt: str, workspace: list[Path] = ()) -> tuple[str, float | None, str]:  # type: ignore[assignment]
    pack = load_pack(root)
    outcome = Simulator(pack, [load_pack(p) for p in workspace]).decide(DiscoveryCase("c", prompt, "select"))
    return outcome.actual, outcome.margin, outcome.reason


def test_near_topic_prompts_on_common_words_stay_below_the_line(make_pack: Callable[..., Path]) -> None:
    ops = make_pack("acme-content-ops", CONTENT_OPS)
    private = make_pack("acme-private-domain-ops", PRIVATE_DOMAIN)
    actual, margin, reason = _decide(ops, "Plan an Instagram content calendar for my bakery.")
    assert actual == "reject" and margin is not None and margin < 0, reason
    actual, _, reason = _decide(private, "What does private-domain traffic mean?")
    assert actual == "reject" and "common words" in reason
    # The same packs' own prompts still select them, with room to spare.
    actual, margin, _ = _decide(ops, "Generate next week's Acme content calendar from our pillars and topic bank.")
    assert actual == "select" and margin is not None and margin > 0.1
    actual, margin, _ = _decide(private, "Write follow-up scripts for each user segment with a gentle touch cadence.")
    assert actual == "select" and margin is not None and margin > 0


def test_a_common_word_weighs_less_than_a_specific_one(make_pack: Callable[..., Path]) -> None:
    entry = catalog_terms(load_pack(make_pack("acme-content-ops", CONTENT_OPS)))
    generic = catalog_score(entry, "content calendar for a bakery")
    specific = catalog_score(entry, "pillars calendar for a bakery")
    assert generic.score < specific.score and generic.specific == () and specific.specific == ("pillar",)


def test_a_term_every_rival_shares_says_less_about_this_pack(make_pack: Callable[..., Path]) -> None:
    ops = catalog_terms(load_pack(make_pack("acme-content-ops", CONTENT_OPS)))
    rival = catalog_terms(load_pack(make_pack("acme-private-domain-ops", PRIVATE_DOMAIN)))
    alone, among = Specificity(), Specificity([rival])
    assert alone.weight("playbook", False) == 1.0 and among.weight("playbook", False) < 1.0  # both are playbooks
    assert among.weight("pillar", False) == 1.0
    assert catalog_score(ops, "playbook for tea", among).score < catalog_score(ops, "playbook for tea").score


def test_a_chinese_prompt_against_an_english_entry_says_what_to_add(make_pack: Callable[..., Path]) -> None:
    persona = make_pack("lilei-personal-ip", PERSONA)
    actual, _, reason = _decide(persona, "用李雷的口吻写一段短视频脚本")
    assert actual == "reject"
    assert "The description has no Chinese words; add them" in reason
    assert "李雷" in reason  # the guide says it: the curator is told which words to carry into the description
    # An English prompt naming the pack still selects it.
    assert _decide(persona, "Write Lilei's founder introduction in his voice.")[0] == "select"


def test_the_margin_is_the_distance_to_the_threshold(make_pack: Callable[..., Path]) -> None:
    ops = make_pack("acme-content-ops", CONTENT_OPS)
    pack = load_pack(ops)
    outcome = Simulator(pack).decide(DiscoveryCase("c", "Acme topic bank pillars", "select"))
    assert outcome.margin is not None and abs(outcome.margin - (outcome.score - DEFAULT_THRESHOLD)) < 1e-9
    assert outcome.to_json()["margin"] == round(outcome.margin, 4)


ONTOLOGY = """---
name: acme-content-ontology
description: Product claims, evidence, audiences, pain points and scenario coverage for Acme Widget.
type: content-ontology
status: ready
---
# Ontology-aware pack
"""
FOUNDER = """---
name: founder-personal-ip
description: 创始人谢晶的个人 IP 完整知识库，含成长经历、方法论、金句、应用话术。
type: personal-profile
status: ready
---
# 谢晶 个人 IP 知识库
"""


def test_the_words_of_the_pack_type_name_a_kind_of_pack_not_this_one(make_pack: Callable[..., Path]) -> None:
    root = make_pack("acme-content-ontology", ONTOLOGY)
    actual, _, reason = _decide(root, "Explain what an ontology is in knowledge graphs.")
    assert actual == "reject", reason
    assert Specificity.of(load_pack(root)).common_terms(["ontology", "graph"]) == {"ontology"}
    assert _decide(root, "Which Acme Widget claims have evidence for each audience?")[0] == "select"


def test_chinese_words_are_judged_by_what_they_name_not_by_bigram_count(make_pack: Callable[..., Path]) -> None:
    root = make_pack("founder-personal-ip", FOUNDER)
    # Two specific words in a long prompt of straddling bigrams: the prompt is about this founder.
    assert _decide(root, "用谢晶的金句写一段社群自我介绍。")[0] == "select"
    # "表达风格" is two everyday words; the bigram between them ("达风") names nothing.
    assert Specificity().common_terms(["表达", "达风", "风格"]) == {"表达", "达风", "风格"}
    assert _decide(root, "什么是表达风格？")[0] == "reject"


def test_the_reason_counts_the_terms_before_naming_them(make_pack: Callable[..., Path]) -> None:
    # A matched "2" must not read as the count: "Covers 2 of 5 prompt terms ("acme", "2")", never "Covers acme, 2
    # of 5 prompt term(s)".
    pack = make_pack("acme-content-ops", CONTENT_OPS.replace("review metrics.", "review metrics for Acme 2."))
    actual, _, reason = _decide(pack, "Acme 2 content pillars for the topic bank")
    assert actual == "select", reason
    assert reason.startswith("Covers ") and " prompt terms (" in reason and '"2"' in reason, reason
    count, _, total = reason.removeprefix("Covers ").partition(" prompt terms")[0].partition(" of ")
    assert count.isdigit() and total.isdigit() and int(count) <= int(total)
