"""Bazaar Market's teacher steps beyond skills/kit/teach_web.py: the shop front's cart (the engine's
storefront archetype, static/engine/views/storefront.js) and number fields, which the accessibility
tree shows as spin-buttons rather than entries."""

from skills.kit.teach import click, named
from skills.kit.teach_web import search


def type_number(screen, label: str, value):
    """Replace the number in the field labelled `label` and commit it with Tab."""
    box = screen.find(
        lambda e: e.role in ("spin-button", "entry") and e.name == label, what=f"the {label!r} field"
    )
    yield [click(box), {"action": "key", "keys": ["ctrl", "a"]}, {"action": "type", "text": str(value)}]
    yield [{"action": "key", "keys": ["Tab"]}]


def add_to_cart(screen, product: str, quantity: int):
    """Find the product's card with the search box, press "Add <product> to cart", then set the cart
    line's quantity and wait for the cart to show it."""
    yield from search(screen, product)
    yield [click(screen.find(named("push-button", f"Add {product} to cart"), what=f"Add {product} to cart"))]
    spin = f"Quantity of {product}"
    screen.find(named("spin-button", spin), timeout_s=10, what=f"{product} in the cart")
    if quantity != 1:
        yield from type_number(screen, spin, quantity)
    screen.find(
        lambda e: e.role == "spin-button" and e.name == spin and e.text.strip() == str(quantity),
        timeout_s=10,
        what=f"{quantity} x {product} in the cart",
    )
