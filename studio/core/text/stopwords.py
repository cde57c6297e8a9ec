"""Stop words: the English and Chinese words a task or a prompt is made of that say nothing about its topic.

One list for every place that matches task words against pack text: the resolver's ranking ignores them in
queries, discovery evals ignore them in prompts, and reports that list "missing facts" or "citation gaps"
should not name them. Three groups, because callers need different strictness:

``FUNCTION_WORDS``
    English articles, pronouns, auxiliaries, prepositions and conjunctions (the usual IR stop list, close to
    the Snowball English list, minus words that carry meaning in packs such as "against", "off", "over").
``REQUEST_WORDS``
    Words that frame a request rather than name its topic ("write", "draft", "explain", "tips", "please").
    Ranking ignores them; a report about what a pack lacks should ignore them too.
``CHINESE_WORDS`` / ``CHINESE_PARTICLES``
    Two-character function and request words (``我们``, ``如何``, ``请问``, ``帮我``) and the particles
    (``的``, ``了``, ``吗``) that a CJK bigram straddling a word boundary carries (``的口`` in ``林悦的口吻``).
``INSTRUCTION_WORDS`` / ``CHINESE_INSTRUCTIONS``
    For reports only: the verbs of an instruction to the model ("reply", "promise", "ensure"; ``回复``, ``注意``,
    ``不要``, ``编造``, ``承诺``). A task says what to do with the topic; a report of missing facts names the topic.
``ORDINARY_WORDS``
    For reports only (``content_terms``): everyday verbs, adjectives and adverbs a task is phrased with
    ("covered", "broken", "still", "working"), in every inflection ``fold_forms`` undoes. A list of what a pack
    *lacks* must name topics; ranking keeps these words, as its evals were tuned with them.

Why a hand-written list and not a package: the lists in packages (``stopwordsiso``, NLTK's corpus) are long
(1,300 English words in ISO's, including "system", "information" and "value", which are topics in packs)
and NLTK's needs a data download. Ours is short, reviewed, and checked by the ranking evals.
"""

from __future__ import annotations

_FUNCTION = """
a about above after again all also am an and any are aren't as at be because been before being below between
both but by can cannot could couldn't did didn't do does doesn't doing don't down during each either else
ever every few for from further had hadn't has hasn't have haven't having he her here hers herself him himself
his how however i if in into is isn't it it's its itself just let's may me might more most must mustn't my
myself neither no nor not now of once only or other ought our ours ourselves out own same shall she should
shouldn't so some such than that that's the their theirs them themselves then there there's these they this
those through thus to too under until up upon us very was wasn't we were weren't what what's when where
whether which while who whom whose why will with within without won't would wouldn't yet you your yours
yourself yourselves
"""
_REQUEST = """
answer ask asked asking asks tell tells explain explains describe give gives giving show shows help helps
need needs want wants wish like please thanks thank could would write writes writing written draft drafts
drafting make makes making create find get gets let know knows provide summarize summarise tip tips
idea ideas thing things something anything way ways someone somebody really quite much many lot lots
"""
# Two-character function and request words. Bigrams are what the ranking sees, so only two-character
# entries matter there; longer words are split into their bigrams by ``is_stop_bigram`` callers.
_CHINESE = """
我们 你们 他们 她们 它们 咱们 大家 自己 什么 怎么 怎样 怎么样 如何 为何 为什么 为什 哪些 哪个 哪里 这个
那个 这些 那些 这样 那样 这里 那里 一个 一些 一下 一点 可以 能够 应该 需要 是否 还是 或者 以及 而且
并且 但是 不过 因为 所以 如果 虽然 就是 已经 没有 不是 还有 然后 关于 对于 有关 请问 请帮 帮我 帮忙
给我 告诉 写一 写个 一段 一篇 一份 一条 时候 现在 里面
"""
_PARTICLES = "的了吗呢吧啊呀嘛哦么着"
_ORDINARY = """
cover covers covered covering break breaks broke broken breaking work works worked working happen happens
happened happening use uses used using go goes went gone going come comes came coming take takes took taken
taking look looks looked looking seem seems seemed try tries tried trying keep keeps kept say says said mean
means meant put puts set run runs ran running turn turns turned start starts started stop stops stopped end ends
ended change changes changed move moves moved call calls called feel feels felt leave leaves left stay stays
stayed bring brings brought hold holds held think thinks thought see sees saw seen wonder wondering wondered
check checks checked fix fixes fixed deal handle handled happen mention mentioned talk talking expect expected
long new old good bad best better worse worst right wrong sure possible impossible available different same certain
whole main real big small little high low okay ok fine still already even again always never often sometimes
usually maybe perhaps probably actually currently exactly today yesterday tomorrow soon later first last next
arrive arrives arrived arriving enough quickly properly correctly anymore somehow anyway else
question questions problem problems issue issues
case cases situation example part kind sort thing stuff
"""

_INSTRUCTION = """
reply replies replied replying respond responds responded responding response promise promises promised promising
ensure ensures ensured avoid avoids avoided avoiding include includes included including note notes noted remember
state states stated list lists listed offer offers offered recommend recommends recommended suggest suggests
suggested send sends sent apologize apologise apologizes apologises apologized apologised inform informs informed
advise advises advised warn warns warned reassure reassures reassured mention mentions invent invents invented
fabricate fabricates fabricated guarantee guarantees guaranteed customer customers user users reader readers
"""
# Instruction verbs and request framing in Chinese (two characters and more), and single characters that frame a
# request (pronouns, "please", "help", object markers). A Chinese task is cut at these into words.
_CHINESE_INSTRUCTIONS = """
回复 回答 答复 注意 不要 不能 不得 不可 禁止 务必 必须 一定 确保 避免 编造 捏造 虚构 承诺 保证 记得
记住 提供 生成 输出 说明 介绍 列出 总结 解释 描述 撰写 根据 按照 参考 使用 时候 的时候 客户 用户
粉丝们 告知 提醒 强调 给出 写出 说出 请你 麻烦
"""
_CHINESE_FRAMING_CHARS = frozenset("我你他她它请帮把被给让要会能就都也还在对向从和与及或时写")

FUNCTION_WORDS: frozenset[str] = frozenset(_FUNCTION.split())
REQUEST_WORDS: frozenset[str] = frozenset(_REQUEST.split())
ENGLISH_STOPWORDS: frozenset[str] = FUNCTION_WORDS | REQUEST_WORDS
"""Everything a query drops: function words and request words."""
CHINESE_WORDS: frozenset[str] = frozenset(_CHINESE.split())
CHINESE_PARTICLES: frozenset[str] = frozenset(_PARTICLES)
_PARTICLE_LEAD = frozenset("的吗呢吧啊呀嘛哦")
"""Particles that never begin a content word (``了`` does: ``了解``; ``么`` and ``着`` do: ``着手``)."""
_KEEP = frozenset({"目的", "的确"})
"""Bigrams ending in a particle that are words of their own (``目的`` is "purpose")."""


ORDINARY_WORDS: frozenset[str] = frozenset(_ORDINARY.split())
INSTRUCTION_WORDS: frozenset[str] = frozenset(_INSTRUCTION.split())
CHINESE_INSTRUCTIONS: frozenset[str] = frozenset(_CHINESE_INSTRUCTIONS.split())
REPORT_STOPWORDS: frozenset[str] = ENGLISH_STOPWORDS | ORDINARY_WORDS | INSTRUCTION_WORDS
"""What a report of missing facts leaves out: every stop word and every ordinary word."""
_PURE_PARTICLES = frozenset("的吗呢吧啊呀嘛哦是")
"""Characters that end a Chinese content term in a report (``是`` too: the copula)."""
_LONGEST_CHINESE = max(len(w) for w in CHINESE_WORDS)


def is_stopword(word: str) -> bool:
    """True for an English stop word (lower-case input), a Chinese stop word or a lone particle."""
    return word in ENGLISH_STOPWORDS or word in CHINESE_WORDS or word in CHINESE_PARTICLES


def is_stop_bigram(bigram: str) -> bool:
    """True for a CJK bigram that is a function word or straddles a particle (``的口``, ``林悦的`` -> ``悦的``).

    A bigram is dropped when it is a listed word, begins with a particle that never starts a word, or ends
    with any particle, unless it is a word of its own (``目的``).
    """
    if bigram in _KEEP:
        return False
    if bigram in CHINESE_WORDS:
        return True
    return len(bigram) == 2 and (bigram[0] in _PARTICLE_LEAD or bigram[1] in CHINESE_PARTICLES)


def fold_forms(word: str) -> set[str]:
    """A lower-case word and the stems a light English fold gives (``tips`` -> ``tip``, ``asked`` -> ``ask``)."""
    forms = {word}
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"),
                         ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            forms.add(word[: len(word) - len(suffix)] + repl)
    return forms


def is_report_stopword(word: str) -> bool:
    """True for an English word a report of missing facts should not name (lower-case input)."""
    return any(form in REPORT_STOPWORDS for form in fold_forms(word))


# "写一"/"写个" are stop bigrams for ranking, but as words they would cut "写一条" after the measure word's "一".
_SEGMENT_WORDS = (CHINESE_WORDS - {"写一", "写个"}) | CHINESE_INSTRUCTIONS
_LONGEST_SEGMENT_WORD = max(len(w) for w in _SEGMENT_WORDS)
MAX_WORD = 5
"""A piece between stop words longer than this is cut into two-character words (most Chinese words have two;
shorter pieces are mostly one noun or a noun compound such as ``小红书笔记``, kept whole)."""


def chinese_content_terms(run: str) -> list[str]:
    """The content words of a run of CJK characters, for a report: not clauses, not instructions.

    A small segmenter: forward maximum matching against the stop, request and instruction words (longest
    first, so ``是否`` is one word, not ``是`` and a stray ``否``), single framing characters (``我``, ``请``,
    ``把``) and particles; what is left between them is content, kept whole up to ``MAX_WORD`` characters and
    cut into two-character words beyond. ``请帮我回复粉丝，注意不要编造数据`` gives ``粉丝``, ``数据``.
    """
    terms: list[str] = []
    piece: list[str] = []

    def flush() -> None:
        text = "".join(piece)
        piece.clear()
        if len(text) < 2:
            return
        if len(text) <= MAX_WORD:
            terms.append(text)
            return
        for i in range(0, len(text) - 1, 2):
            word = text[i:i + 2] if len(text) - i != 3 else text[i:]
            terms.append(word)
            if len(word) == 3:
                break

    i = 0
    while i < len(run):
        size = next((n for n in range(min(_LONGEST_SEGMENT_WORD, len(run) - i), 1, -1)
                     if run[i:i + n] in _SEGMENT_WORDS), 0)
        if size or run[i] in _PURE_PARTICLES or run[i] in _CHINESE_FRAMING_CHARS:
            flush()
            i += size or 1
            continue
        piece.append(run[i])
        i += 1
    flush()
    return terms
