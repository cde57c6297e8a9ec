"""A review's status/trust edit never turns a valid KNOWLEDGE.md into a broken or different one."""

from __future__ import annotations

import pytest

from studio.core.review import ReviewError, edit_status_trust

REFUSED = {
    "flow mapping": "---\n{name: d, description: d, type: domain-reference, status: draft}\n---\n",
    "indented block": "---\n  name: d\n  description: d\n  status: draft\n---\n",
    "quoted key": "---\nname: d\n\"status\": 'draft'\n---\n",
    "explicit key": "---\nname: d\n? status\n: draft\n---\n",
    "multi-line plain value": "---\nname: d\nstatus: draft\n  continued\n---\n",
}


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_forms_the_line_edit_cannot_handle_are_refused(text: str) -> None:
    with pytest.raises(ReviewError):
        edit_status_trust(text, status="ready", trust="official")


def test_a_plain_file_is_edited_in_place_keeping_comments_quotes_and_line_ends() -> None:
    text = "\ufeff---\r\nname: d\r\nstatus: 'draft' # set by the builder\r\n---\r\nbody\r\n"
    edit = edit_status_trust(text, status="ready", trust="official")
    assert edit.new_text == (
        "\ufeff---\r\nname: d\r\nstatus: 'ready' # set by the builder\r\ntrust: official\r\n---\r\nbody\r\n")
