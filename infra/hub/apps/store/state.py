"""Store admin state: products with variants, customers, orders with payment and fulfilment, discounts.

Money is a JSON number in the store currency, rounded to cents by whoever writes it. Order totals
are not stored: they derive from lines, discount, shipping and the store's tax rate (see SCHEMA.md),
so a task that changes a line changes exactly one field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from infra.hub.apps.models import Loose

# "Last edited" stamps move on every save, even one that changes nothing a task cares about.
VOLATILE = ("ui", "products.*.updated_at")


class StoreInfo(Loose):
    name: str
    currency: str = "USD"
    tax_rate: float = Field(default=0.0, ge=0, le=1)
    email: str = ""


class Variant(Loose):
    title: str
    sku: str = ""
    price: float = Field(ge=0)
    compare_at: float | None = None
    inventory: int = 0
    options: dict[str, str] = Field(default_factory=dict)


class Product(Loose):
    title: str = Field(min_length=1)
    description: str = ""
    vendor: str = ""
    type: str = ""
    status: Literal["active", "draft", "archived"] = "draft"
    tags: list[str] = Field(default_factory=list)
    variants: dict[str, Variant] = Field(min_length=1)
    created: str = ""
    updated_at: str = ""


class Address(Loose):
    name: str = ""
    line1: str = ""
    city: str = ""
    zip: str = ""
    country: str = ""


class Customer(Loose):
    first_name: str
    last_name: str
    email: str
    phone: str = ""
    city: str = ""
    country: str = ""
    tags: list[str] = Field(default_factory=list)
    note: str = ""
    accepts_marketing: bool = False
    created: str = ""


class OrderLine(Loose):
    product: str
    variant: str
    title: str
    variant_title: str = ""
    sku: str = ""
    quantity: int = Field(ge=1)
    price: float = Field(ge=0)


class Fulfillment(Loose):
    carrier: str
    tracking: str
    created: str
    notify_customer: bool = True


class AppliedDiscount(Loose):
    code: str
    amount: float = Field(ge=0)


class Order(Loose):
    number: str
    customer: str | None = None
    created: str
    lines: list[OrderLine] = Field(min_length=1)
    shipping: float = 0.0
    discount: AppliedDiscount | None = None
    financial_status: Literal["pending", "paid", "refunded", "voided"] = "pending"
    fulfillment_status: Literal["unfulfilled", "fulfilled"] = "unfulfilled"
    fulfillments: list[Fulfillment] = Field(default_factory=list)
    shipping_address: Address = Field(default_factory=Address)
    note: str = ""
    tags: list[str] = Field(default_factory=list)
    cancelled: bool = False


class Discount(Loose):
    code: str = Field(pattern=r"^[A-Z0-9_-]{3,32}$")
    kind: Literal["percentage", "fixed"]
    value: float = Field(gt=0)
    status: Literal["active", "scheduled", "expired", "disabled"] = "active"
    min_subtotal: float = 0.0
    usage_count: int = 0
    usage_limit: int | None = None
    starts: str = ""
    ends: str | None = None


class StoreState(Loose):
    store: StoreInfo
    products: dict[str, Product] = Field(default_factory=dict)
    customers: dict[str, Customer] = Field(default_factory=dict)
    orders: dict[str, Order] = Field(default_factory=dict)
    discounts: dict[str, Discount] = Field(default_factory=dict)
    ui: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> StoreState:
        for oid, order in self.orders.items():
            if order.customer is not None and order.customer not in self.customers:
                raise ValueError(f"orders.{oid}.customer {order.customer!r} is not a customer")
            if order.discount is not None and order.discount.code not in self.discounts:
                raise ValueError(f"orders.{oid}.discount.code {order.discount.code!r} is not a discount")
        for code, discount in self.discounts.items():
            if discount.code != code:
                raise ValueError(f"discounts.{code}.code must equal its key ({discount.code!r})")
            if discount.kind == "percentage" and discount.value > 100:
                raise ValueError(f"discounts.{code}.value {discount.value} is over 100 %")
        return self
